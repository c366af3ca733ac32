// Import boundaries, checked in `npm test` (`npm run deps`): no import cycles between files or
// between folders of main/, shared/ and renderer/ (type-only imports aside, since they vanish
// from the built code), main/platform/ is the floor of main/ and imports nothing above it, and
// the runtime folders keep to their layers (shared/ is pure, renderer/ never reaches main/).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-file-cycles',
      comment:
        'Two files that import each other (directly or through others) are one piece in two places.',
      severity: 'error',
      from: { path: '^(main|shared|renderer|preload)/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment:
        'Folders that import each other cannot be understood, tested or moved one at a time.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^(main|shared|renderer|preload)/' },
      to: { circular: true },
    },
    {
      name: 'platform-is-the-floor',
      comment:
        'main/platform/ holds the pieces everything else builds on; it never imports the services above it.',
      severity: 'error',
      from: { path: '^main/platform/' },
      to: { path: '^main/', pathNot: '^main/platform/' },
    },
    {
      name: 'shared-is-pure',
      comment: 'shared/ runs in every runtime: no main/, renderer/ or preload/.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(main|renderer|preload)/' },
    },
    {
      name: 'renderer-only-through-the-contract',
      comment: 'renderer/ talks to main only through platform/api and the shared contract.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^(main|preload)/' },
    },
    {
      name: 'main-never-imports-the-window',
      severity: 'error',
      from: { path: '^main/' },
      to: { path: '^(renderer|preload)/' },
    },
    {
      name: 'tests-stay-out-of-the-app',
      comment: 'Test support is imported by tests only, never by code that ships.',
      severity: 'error',
      from: { path: '^(main|shared|renderer|preload)/', pathNot: '/testing/' },
      to: { path: '(\\.test\\.tsx?$|/testing/|test-support)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Why tests are left out: a test may import from anywhere to exercise it; the structure checked
    // is the app's. That the app never imports test support is its own rule above.
    exclude: { path: ['(^|/)(node_modules|out|dist|bench/\\.work)/', '\\.test\\.tsx?$'] },
    includeOnly: '^(main|shared|renderer|preload)/',
    // Why false: type-only imports are erased from the built code, so they cannot form a cycle at run time.
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.tests.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'] },
  },
};
