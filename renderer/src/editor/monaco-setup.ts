import * as monaco from 'monaco-editor';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker?worker';
import { configureMonacoYaml } from 'monaco-yaml';
import YamlWorker from 'monaco-yaml/yaml.worker?worker';

// Why `?worker`: Vite bundles each worker as its own file served from our origin, which the
// CSP allows (worker-src 'self'); monaco-yaml's worker answers the `yaml` label (monaco-yaml README).
self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    return label === 'yaml' ? new YamlWorker() : new EditorWorker();
  },
};

/** The language id of SKILL.md: YAML frontmatter, Markdown body. */
export const SKILL_LANGUAGE = 'skill-md';

monaco.languages.register({ id: SKILL_LANGUAGE, extensions: ['.md'], aliases: ['SKILL.md'] });
// One Monarch grammar that hands the frontmatter to the YAML tokenizer and the body to Markdown
// (Monarch `nextEmbedded`), so the whole file stays one model with one undo history.
monaco.languages.setMonarchTokensProvider(SKILL_LANGUAGE, {
  tokenizer: {
    root: [
      [/^---[ \t]*$/, { token: 'metatag', next: '@frontmatter', nextEmbedded: 'yaml' }],
      [/^/, { token: '@rematch', next: '@body', nextEmbedded: 'markdown' }],
    ],
    frontmatter: [[/^(---|\.\.\.)[ \t]*$/, { token: 'metatag', next: '@afterFrontmatter', nextEmbedded: '@pop' }]],
    afterFrontmatter: [[/^/, { token: '@rematch', next: '@body', nextEmbedded: 'markdown' }]],
    body: [[/^\0never$/, { token: '', nextEmbedded: '@pop' }]],
  },
});

/** The JSON Schema monaco-yaml uses for completion and hover in the frontmatter mirror. */
export const FRONTMATTER_MODEL_URI = monaco.Uri.parse('file:///skillbench/frontmatter.yaml');

let yamlConfigured: ReturnType<typeof configureMonacoYaml> | undefined;

/** Point monaco-yaml at a frontmatter schema (replaced when the active profiles change). */
export function setFrontmatterSchema(schema: object, uri: string): void {
  const schemas = [{ fileMatch: [FRONTMATTER_MODEL_URI.toString()], uri, schema }];
  if (yamlConfigured) {
    void yamlConfigured.update({ schemas });
  } else {
    yamlConfigured = configureMonacoYaml(monaco, { enableSchemaRequest: false, hover: true, completion: true, validate: true, schemas });
  }
}

export { monaco };
