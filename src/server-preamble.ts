import { unsupportedNodeMessage } from './common/node-version';
import { sizeThreadPool } from './common/thread-pool';

/*
 * The server entry imports this module before any other. It refuses an unsupported Node.js before
 * anything fails obscurely, and runs in production mode unless NODE_ENV says otherwise: graphql-js
 * reads NODE_ENV when it loads, and Apollo and express serve markedly faster in production mode.
 */
const unsupported = unsupportedNodeMessage(process.versions.node);
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}
process.env.NODE_ENV ??= 'production';
// before anything reads a file asynchronously: libuv sizes its pool when it first starts
sizeThreadPool();
