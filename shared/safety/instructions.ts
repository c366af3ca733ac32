/**
 * Instructions aimed at the agent rather than the user (docs/safety-review.md, "Instructions
 * aimed at the agent"). Each pattern is bounded (`{0,n}`, no unbounded `.*`), so a line of any
 * length is matched in linear time; lines are folded first (shared/safety/unicode.ts), so
 * zero-width splits and lookalike letters do not hide a phrase.
 */

/** One phrase rule: its id and the patterns that raise it. */
export interface PhraseRule {
  rule: string;
  patterns: readonly RegExp[];
  /** Severity when the pattern matches (the catalog's when absent). */
  severity?: 'low' | 'medium' | 'high' | 'critical';
}

const NOUNS =
  '(?:instructions?|prompts?|rules|guidelines|directives|messages|context|constraints|policies|guardrails|programming|orders)';

/** The phrase rules, run on prose, quotes, comments, titles and alt text. */
export const PHRASE_RULES: readonly PhraseRule[] = [
  {
    rule: 'agent/override-instructions',
    patterns: [
      new RegExp(
        `\\b(?:ignore|disregard|forget|override|bypass|discard|abandon)\\s+(?:all\\s+|any\\s+|every\\s+)?(?:of\\s+)?(?:the\\s+|your\\s+|these\\s+)?(?:previous|prior|above|earlier|preceding|original|system|existing|other|safety|developer|initial|old)\\s+(?:\\w+\\s+){0,2}${NOUNS}`,
        'i',
      ),
      /\byou\s+are\s+(?:now|no\s+longer)\s+(?:an?\s+)?(?:unrestricted|unfiltered|jailbroken|dan\b|in\s+(?:developer|god|admin|root)\s+mode|free\s+(?:of|from)|bound\s+by)/i,
      /\b(?:new|updated|real|true|actual)\s+(?:system\s+)?instructions?\s*:/i,
      /\bthese\s+instructions\s+(?:override|supersede|replace|take\s+precedence)/i,
      /\btakes?\s+precedence\s+over\s+(?:all|any|the)\s+(?:other|previous|system|user'?s?)\b/i,
      /\b(?:developer|god|admin|jailbreak)\s+mode\s+(?:is\s+)?(?:enabled|activated|on)\b/i,
    ],
  },
  {
    rule: 'agent/conceal-from-user',
    patterns: [
      /\b(?:do\s+not|don't|never|without)\s+(?:ever\s+)?(?:tell(?:ing)?|inform(?:ing)?|notify(?:ing)?|mention(?:ing)?|reveal(?:ing)?|show(?:ing)?|alert(?:ing)?|let(?:ting)?|disclos(?:e|ing)|report(?:ing)?)\s+(?:the\s+)?(?:user|human|operator|anyone|them)(?:\s+(?:know|see))?\s+(?:about\s+|of\s+|that\s+)?(?:this\s+(?:step|command|file|script|upload|request|instruction|section|action|skill)|these\s+(?:steps|commands|instructions|actions|files)|that\s+you|what\s+you|the\s+(?:following|upload|request|hidden|extra|additional|background))/i,
      /\b(?:hide|conceal)\s+(?:this|these|it|the\s+\w+(?:\s+\w+)?)\s+from\s+(?:the\s+)?(?:user|human|operator)/i,
      /\bkeep\s+(?:this|these|it)\s+(?:\w+\s+)?(?:secret|hidden)\s+from\s+(?:the\s+)?(?:user|human|operator)/i,
      /\b(?:the\s+)?user\s+(?:must|should)\s+(?:not|never)\s+(?:know|see|find\s+out|notice|learn|be\s+told)/i,
      /\bwithout\s+(?:the\s+)?user(?:'s)?\s+(?:knowledge|knowing|noticing|awareness|seeing|being\s+aware)/i,
      /\b(?:do\s+not|don't|never)\s+(?:mention|reveal|disclose|show|display|print|output|log|explain)\s+(?:this|these)\s+(?:step|steps|instruction|instructions|command|commands|section|part|action|actions)\b/i,
      /\b(?:silently|secretly|covertly|invisibly|stealthily)\s+(?:run|execute|send|upload|post|install|copy|exfiltrate|transmit|forward|add|append|modify|delete|download|fetch|read|collect|include|attach)\b/i,
    ],
  },
  {
    rule: 'agent/fake-role-tag',
    patterns: [
      /<\/?\s*(?:system|system[-_ ]?prompt|assistant|developer|sys|im_start|im_end|admin|tool_result|tool_response|function_results|anthropic)\s*>/i,
      /<\|(?:im_start|im_end|system|assistant|user|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\|>/i,
      /\[\/?(?:SYSTEM|INST|SYS)\]|<<\/?SYS>>/,
      /^\s*(?:#{1,6}\s*)?\**(?:SYSTEM|ADMIN|DEVELOPER)\s*(?:MESSAGE|PROMPT|OVERRIDE|NOTE|INSTRUCTIONS?|UPDATE)\**\s*:/,
    ],
  },
  {
    rule: 'agent/approval-bypass',
    patterns: [
      /--dangerously-skip-permissions|--dangerously-bypass-approvals|\bbypassPermissions\b|--yolo\b|"defaultMode"\s*:\s*"(?:bypass|acceptEdits)/i,
      /\b(?:do\s+not|don't|never|without)\s+(?:ask(?:ing)?|wait(?:ing)?|prompt(?:ing)?|request(?:ing)?|seek(?:ing)?|get(?:ting)?|check(?:ing)?\s+(?:with|for))\s+(?:for\s+)?(?:the\s+)?(?:user(?:'s)?\s+)?(?:for\s+)?(?:permission|confirmation|approval|consent|authori[sz]ation)/i,
      /\bskip\s+(?:all\s+|any\s+|the\s+)?(?:permission|confirmation|approval|safety)\s+(?:checks?|prompts?|dialogs?|steps?|requests?)/i,
      /\b(?:you\s+(?:already\s+)?have|(?:has|have)\s+(?:already\s+)?(?:given|granted))\s+(?:full\s+|explicit\s+|blanket\s+|standing\s+)?(?:permission|approval|consent)\s+(?:to|for)\b/i,
      /\b(?:pre-?approved|auto-approve\s+all|approve\s+(?:all|every)\s+(?:tool|command|request)s?\s+automatically)\b/i,
    ],
  },
  {
    rule: 'agent/remote-instructions',
    patterns: [
      /\b(?:fetch|download|retrieve|get|load|read|curl|pull|obtain|grab)\s+(?:the\s+|your\s+)?(?:(?:latest|updated|current|real|full|new|additional|further|remaining|next|actual)\s+){0,2}(?:instructions?|prompts?|rules|commands?|directives|guidance|system\s+prompt|steps|tasks?)\s+(?:from|at)\s+[`'"<(]?(?:https?:\/\/|the\s+(?:url|server|endpoint|address|link))/i,
      /\b(?:follow|obey|execute|run|apply|carry\s+out)\s+(?:the\s+|whatever\s+|any\s+|all\s+)?(?:instructions?|commands?|steps|directives|tasks?)\s+(?:(?:found|returned|given|listed|served|hosted|contained|received)\s+)?(?:at|from|in|by)\s+(?:the\s+response\s+(?:from|of)\s+)?[`'"<(]?(?:https?:\/\/|the\s+(?:url|server|endpoint|response|remote))/i,
      /\b(?:do|follow|execute|run)\s+(?:whatever|everything)\s+(?:the\s+)?(?:server|url|endpoint|response|page|remote\s+\w+)\s+(?:says|returns|tells|sends)/i,
      /\b(?:each|every)\s+time\b[^.\n]{0,60}\b(?:fetch|download|curl|wget)\b[^.\n]{0,60}https?:\/\/[^.\n]{0,100}\b(?:and|then)\s+(?:follow|obey|execute|run)/i,
    ],
  },
  {
    rule: 'agent/exfiltrate-data',
    patterns: [
      /\b(?:send|upload|post|transmit|forward|email|exfiltrate|beacon|report)\s+(?:a\s+copy\s+of\s+)?(?:the\s+|all\s+|their\s+|your\s+|any\s+|every\s+)?(?:contents?\s+of\s+)?(?:the\s+)?(?:user(?:'s)?\s+)?(?:~\/\.ssh\b|ssh\s+keys?|private\s+keys?|id_rsa|~\/\.aws|aws\s+credentials|credentials|api\s+keys?|access\s+tokens?|passwords?|secrets|\.env\b|environment\s+variables|cookies|browser\s+(?:data|profile|history)|wallets?|seed\s+phrases?|conversation(?:\s+history)?|chat\s+history|session\s+tokens?)(?:[^.\n]|\.(?=\S)){0,80}\b(?:to|via|at)\s+[`'"<(]?(?:https?:\/\/|[\w.-]+@[\w.-]+|the\s+(?:webhook|collector|server|endpoint|url)|our\s+(?:server|endpoint|api|webhook)|this\s+(?:url|webhook|endpoint))/i,
      /\b(?:include|append|attach|add|embed)\s+(?:the\s+)?(?:user(?:'s)?\s+)?(?:ssh\s+keys?|private\s+keys?|api\s+keys?|credentials|tokens?|passwords?|secrets|environment\s+variables|conversation|chat\s+history)\s+(?:in|to)\s+(?:the\s+)?(?:url|query|image\s+(?:url|link|address)|request)/i,
    ],
  },
  {
    rule: 'agent/decode-and-follow',
    patterns: [
      /\b(?:decode|base64[- ]decode|unescape|decrypt|deobfuscate|reverse|rot13)\s+(?:the\s+|this\s+)?(?:following\s+)?(?:\S+\s+){0,4}(?:and|then)\s+(?:follow|execute|run|obey|do\s+what|carry\s+out|act\s+on)/i,
    ],
  },
];

/** Words that address an AI agent, and words of action: both in a hidden place is an instruction. */
export const ADDRESSES_AGENT =
  /\b(?:ai|assistant|agent|model|llm|claude|gpt|copilot|codex|gemini|chatbot|you\s+(?:must|should|will|need\s+to|are\s+to|have\s+to)|always|make\s+sure\s+(?:to|you)|be\s+sure\s+to|when\s+(?:the\s+user|invoked|triggered|this\s+skill))\b/i;
export const ACTION_WORD =
  /\b(?:run|execute|send|upload|fetch|download|curl|wget|read|delete|remove|install|write|append|post|include|tell|say|respond|reply|ignore|call|invoke|open|visit|copy|output|print)\b/i;
