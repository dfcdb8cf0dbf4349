import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/* How `set-password` reads a password: a hidden prompt, or stdin. */

/** Asks on the terminal without echoing the answer (the prompt goes to stderr: stdout holds only the JSON result). */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    let muted = false;
    const output = new Writable({
      write(chunk, _encoding, done) {
        if (!muted) process.stderr.write(chunk);
        done();
      },
    });
    const prompt = createInterface({ input: process.stdin, output, terminal: true });
    prompt.question(question, (answer) => {
      prompt.close();
      process.stderr.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}

/**
 * A password for an admin command, never from argv (argv shows in `ps` and shell history): typed
 * twice at a hidden prompt on a terminal, else the whole of stdin less one final line break
 * (`printf %s "$PW" | npm run admin -- set-password --email E`, or `< file`).
 * Resolves to null when the two typed passwords differ.
 */
export async function readPassword(): Promise<string | null> {
  if (!process.stdin.isTTY) return (await readAll(process.stdin)).replace(/\r?\n$/, '');
  const first = await askHidden('New password: ');
  const again = await askHidden('The same again: ');
  return first === again ? first : null;
}
