/** Export/import planning: targets, frontmatter projection, layout plans, package checks, diffs. Pure. */
export * from './types';
export * from './targets';
export * from './normalise';
export * from './frontmatter';
export * from './plan';
export * from './diff';
export * from './archive-paths';
