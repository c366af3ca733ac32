/**
 * The parameters each method the skills server answers must have, checked before any handler
 * runs, so a request whose parameters have the wrong type gets -32602 with one plain sentence
 * (JSON-RPC 2.0 §5.1; SECURITY.md, "The embedded MCP server" §6) instead of the SDK's -32603
 * with its validator's dump. The schemas only say what the handlers rely on; everything else
 * passes through.
 */
import { z } from 'zod';
import type { JSONRPCErrorResponse, JSONRPCRequest } from '@modelcontextprotocol/server';
import { DIRECTORY_READ_METHOD, SKILLS_GET_METHOD, SKILLS_LIST_METHOD } from '../../shared/sep';
import { jsonKind, valueAt } from '../../shared/text/json-kind';
import { errorResponse, RpcCode } from './jsonrpc';

const Cursor = z.looseObject({ cursor: z.string().optional() });
const Uri = z.looseObject({ uri: z.string() });

/** Method → the shape of `params`. A method that is not here is not checked. */
const PARAMS: Record<string, z.ZodType> = {
  initialize: z.looseObject({
    protocolVersion: z.string(),
    capabilities: z.looseObject({}),
    clientInfo: z.looseObject({ name: z.string(), version: z.string() }),
  }),
  [SKILLS_LIST_METHOD]: Cursor.optional(),
  [SKILLS_GET_METHOD]: Uri,
  [DIRECTORY_READ_METHOD]: z.looseObject({ uri: z.string(), cursor: z.string().optional() }),
  'resources/read': Uri,
  'resources/list': Cursor.optional(),
  'resources/templates/list': Cursor.optional(),
  'resources/subscribe': Uri,
  'resources/unsubscribe': Uri,
  'tools/list': Cursor.optional(),
  'tools/call': z.looseObject({
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()).optional(),
  }),
  'prompts/list': Cursor.optional(),
  'prompts/get': z.looseObject({
    name: z.string(),
    arguments: z.record(z.string(), z.string()).optional(),
  }),
};

const schemas = new Map<string, z.ZodType>(
  Object.entries(PARAMS).map(([method, params]) => [method, z.looseObject({ params })]),
);

const KIND_WORDS: Record<string, string> = {
  string: 'text (a string)',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list (an array)',
};

/** One plain sentence for the first problem with a request's parameters. */
function describe(method: string, request: unknown, issues: readonly z.core.$ZodIssue[]): string {
  const issue = issues[0];
  if (!issue) return `The parameters of ${method} are not valid.`;
  const path = issue.path[0] === 'params' ? issue.path.slice(1) : issue.path;
  const name = path.length > 0 ? `"${path.map(String).join('.')}"` : 'The parameters';
  const value = valueAt(request, issue.path);
  if (issue.code === 'invalid_type') {
    const wanted = KIND_WORDS[issue.expected] ?? issue.expected;
    return value === undefined
      ? `${method} needs ${path.length > 0 ? name : 'parameters'}, which must be ${wanted}.`
      : `In ${method}, ${name} must be ${wanted}, not ${jsonKind(value)}.`;
  }
  return `In ${method}, ${name} is not valid: ${issue.message}.`;
}

/** The problem with `params` for `method`, as a sentence and the validator's issues; undefined when they fit. */
export function paramsProblem(
  method: string,
  params: unknown,
): { message: string; data: { issues: { path: string; message: string }[] } } | undefined {
  const schema = schemas.get(method);
  if (!schema) return undefined;
  const request = { method, params };
  const checked = schema.safeParse(request);
  if (checked.success) return undefined;
  return {
    message: describe(method, request, checked.error.issues),
    data: {
      issues: checked.error.issues.map((i) => ({
        path: i.path.map(String).join('.'),
        message: i.message,
      })),
    },
  };
}

/** The -32602 answer for a request whose parameters do not fit, or undefined when they do. */
export function paramsError(message: JSONRPCRequest): JSONRPCErrorResponse | undefined {
  const problem = paramsProblem(message.method, message.params);
  return problem
    ? errorResponse(message.id, RpcCode.InvalidParams, problem.message, problem.data)
    : undefined;
}
