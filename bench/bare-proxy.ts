// The tool server's baseline: a bare Express route that does what a `tools/call get_course` must at
// the least — read the JSON-RPC body, make the backend call over a keep-alive connection, and answer
// the backend's course as the call's text and structured content — with no MCP session, no schema
// check and no error mapping. Stock Express, like the bench's other bare routes.
// Arguments: port, backend base URL, MCP key.
import { Agent, request } from 'node:http';
import express from 'express';

const [port, backend, key] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true });
const courseUrl = `${backend}/api/v2/courses/1`;

function getCourse(): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(courseUrl, { agent, headers: { 'x-mcp-key': key as string } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const app = express();
app.disable('x-powered-by');
app.post('/mcp', express.json(), async (req, res) => {
  const text = await getCourse();
  res.json({
    result: { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) },
    jsonrpc: '2.0',
    id: req.body.id,
  });
});
app.listen(Number(port), '127.0.0.1', () => console.log('bare proxy ready'));
