/** The peer for the benchmark: the official SDK v2 skills server (`loadSkills` + `attach`) over stdio. */
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';

const root = process.argv[2];
if (!root) {
  process.stderr.write('usage: peer-server <library>\n');
  process.exit(2);
}
const skills = await loadSkills(root, { onWarning: () => undefined });
const mcp = new McpServer({ name: 'sdk-v2-skills', version: '2.4.0' });
skills.attach(mcp);
await mcp.connect(new StdioServerTransport());
