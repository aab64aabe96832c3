// The baseline of the benchmark: a bare Express route per scenario that answers the very bytes the
// mock answered, with no auth, no validation and no state — what "just Express" costs. A write route
// reads its JSON body with `express.json()`, as any Express route that takes a body does; one that
// left the body unread would measure less than Express's part of a write.
import { readFileSync } from 'node:fs';
import express from 'express';
import { expressServer } from '../lib/express-server.ts';

interface Route {
  method: 'GET' | 'POST';
  path: string;
  status: number;
  contentType: string;
  body: string;
}

// The second port serves the same app on the mock's own HTTP server (lib/express-server.ts): a
// request and its answer are built with Express's prototypes instead of switched to them. The
// bench compares the mock with both; its targets are on the first, stock Express.
const [routesFile, port, samePort] = process.argv.slice(2);
const routes: Route[] = JSON.parse(readFileSync(routesFile as string, 'utf8'));
const app = express();
app.disable('x-powered-by');
for (const r of routes) {
  const send = (_req: express.Request, res: express.Response) => {
    res.status(r.status).type(r.contentType).send(r.body);
  };
  if (r.method === 'GET') app.get(r.path, send);
  else app.post(r.path, express.json(), send);
}
app.listen(Number(port), '127.0.0.1', () => console.log('bare server ready'));
if (samePort) expressServer(app).listen(Number(samePort), '127.0.0.1');
