import { configureMonacoYaml } from 'monaco-yaml';
import YamlWorker from 'monaco-yaml/yaml.worker?worker';
import { monaco, registerMonacoWorker } from '../../ui/monaco';

// Why: monaco-yaml's worker answers the `yaml` label (monaco-yaml README); Vite serves it from our origin.
registerMonacoWorker('yaml', () => new YamlWorker());

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
    frontmatter: [
      [
        /^(---|\.\.\.)[ \t]*$/,
        { token: 'metatag', next: '@afterFrontmatter', nextEmbedded: '@pop' },
      ],
    ],
    afterFrontmatter: [[/^/, { token: '@rematch', next: '@body', nextEmbedded: 'markdown' }]],
    body: [[/^\0never$/, { token: '', nextEmbedded: '@pop' }]],
  },
});

/** The hidden YAML model that mirrors the frontmatter (line N here is line N+1 of SKILL.md). */
export const FRONTMATTER_MODEL_URI = monaco.Uri.parse('file:///skillbench/frontmatter.yaml');

/** monaco-yaml's own providers, captured so SKILL.md can forward to them through the mirror. */
const yamlProviders: {
  hover?: monaco.languages.HoverProvider;
  completion?: monaco.languages.CompletionItemProvider;
} = {};

let yamlConfigured: ReturnType<typeof configureMonacoYaml> | undefined;

/** Shift a range by `lines` (mirror ↔ SKILL.md). */
function shift<T extends monaco.IRange>(range: T, lines: number): T {
  return {
    ...range,
    startLineNumber: range.startLineNumber + lines,
    endLineNumber: range.endLineNumber + lines,
  };
}

/** Is `line` of SKILL.md inside the frontmatter (after the opening ---, before the closing one)? */
function inFrontmatter(model: monaco.editor.ITextModel, line: number): boolean {
  if (line < 2 || model.getLineContent(1).trimEnd() !== '---') return false;
  for (let i = 2; i <= Math.min(line, model.getLineCount()); i++) {
    const text = model.getLineContent(i).trimEnd();
    if (text === '---' || text === '...') return false;
  }
  return true;
}

/** Point monaco-yaml at a frontmatter schema (replaced when the active profiles change). */
export function setFrontmatterSchema(schema: object, uri: string): void {
  const schemas = [{ fileMatch: [FRONTMATTER_MODEL_URI.toString()], uri, schema }];
  if (yamlConfigured) {
    void yamlConfigured.update({ schemas });
    return;
  }
  // Why a wrapped `languages`: monaco-yaml registers its hover and completion for the `yaml`
  // language only; capturing them lets SKILL.md (one Markdown model) forward frontmatter
  // positions to the mirror model without reaching into Monaco internals.
  const languages = {
    ...monaco.languages,
    registerHoverProvider(
      selector: monaco.languages.LanguageSelector,
      provider: monaco.languages.HoverProvider,
    ) {
      if (selector === 'yaml') yamlProviders.hover = provider;
      return monaco.languages.registerHoverProvider(selector, provider);
    },
    registerCompletionItemProvider(
      selector: monaco.languages.LanguageSelector,
      provider: monaco.languages.CompletionItemProvider,
    ) {
      if (selector === 'yaml') yamlProviders.completion = provider;
      return monaco.languages.registerCompletionItemProvider(selector, provider);
    },
  };
  // Why validate: false: the core reports frontmatter problems with plain-language messages and
  // exact ranges; monaco-yaml adds completion and hover from the same JSON Schemas.
  yamlConfigured = configureMonacoYaml(
    { ...monaco, languages },
    {
      enableSchemaRequest: false,
      hover: true,
      completion: true,
      validate: false,
      format: { enable: false },
      schemas,
    },
  );
}

monaco.languages.registerHoverProvider(SKILL_LANGUAGE, {
  async provideHover(model, position, token) {
    const mirror = monaco.editor.getModel(FRONTMATTER_MODEL_URI);
    if (!mirror || !yamlProviders.hover || !inFrontmatter(model, position.lineNumber)) return null;
    const hover = await yamlProviders.hover.provideHover(
      mirror,
      new monaco.Position(position.lineNumber - 1, position.column),
      token,
    );
    if (!hover) return null;
    return { ...hover, range: hover.range ? shift(hover.range, 1) : undefined };
  },
});

monaco.languages.registerCompletionItemProvider(SKILL_LANGUAGE, {
  triggerCharacters: [' ', ':'],
  async provideCompletionItems(model, position, context, token) {
    const mirror = monaco.editor.getModel(FRONTMATTER_MODEL_URI);
    if (!mirror || !yamlProviders.completion || !inFrontmatter(model, position.lineNumber))
      return { suggestions: [] };
    const list = await yamlProviders.completion.provideCompletionItems(
      mirror,
      new monaco.Position(position.lineNumber - 1, position.column),
      context,
      token,
    );
    if (!list) return { suggestions: [] };
    return {
      ...list,
      suggestions: list.suggestions.map((item) => ({
        ...item,
        range:
          'insert' in item.range
            ? { insert: shift(item.range.insert, 1), replace: shift(item.range.replace, 1) }
            : shift(item.range, 1),
        additionalTextEdits: item.additionalTextEdits?.map((edit) => ({
          ...edit,
          range: shift(edit.range, 1),
        })),
      })),
    };
  },
});

/** The Monaco API with the SKILL.md language and monaco-yaml set up. */
export { monaco };
