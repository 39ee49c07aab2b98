/**
 * A real SMTP server for the browser tests: it listens on 127.0.0.1, speaks enough of
 * RFC 5321 (EHLO/HELO, MAIL, RCPT, DATA with dot-unstuffing, RSET, NOOP, QUIT) for the
 * server's mail client, and keeps every message. `mailsTo(address)` returns them with the
 * body decoded (quoted-printable or base64) and the first link.
 */
import { createServer } from 'node:net';

/** Decodes a message body by its `Content-Transfer-Encoding`. */
function decodeBody(head, body) {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const joined = body.replace(/=\r?\n/g, '');
    const bytes = [];
    for (let i = 0; i < joined.length; i++) {
      if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
        bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
        i += 2;
      } else {
        bytes.push(...Buffer.from(joined[i], 'utf8'));
      }
    }
    return Buffer.from(bytes).toString('utf8');
  }
  return body;
}

/** @returns {Promise<{ port: number, mails: () => object[], mailsTo: (to: string) => object[], close: () => Promise<void> }>} */
export async function startSmtpSink() {
  const mails = [];
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let data = [];
    let from = '';
    let to = [];
    const reply = (line) => socket.write(`${line}\r\n`);
    reply('220 sink.test ESMTP ready');
    socket.on('data', (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\r\n')) !== -1) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            const raw = data.join('\r\n');
            const split = raw.indexOf('\r\n\r\n');
            const head = split === -1 ? raw : raw.slice(0, split);
            const body = decodeBody(head, split === -1 ? '' : raw.slice(split + 4));
            mails.push({ from, to, raw, head, body, link: /https?:\/\/\S+/.exec(body)?.[0] ?? null });
            data = [];
            to = [];
            reply('250 OK: queued');
          } else {
            data.push(line.startsWith('.') ? line.slice(1) : line);
          }
          continue;
        }
        const verb = line.split(/[ :]/)[0].toUpperCase();
        const address = /<([^>]*)>/.exec(line)?.[1] ?? '';
        if (verb === 'EHLO') socket.write('250-sink.test\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n');
        else if (verb === 'HELO') reply('250 sink.test');
        else if (verb === 'MAIL') {
          from = address;
          to = [];
          reply('250 OK');
        } else if (verb === 'RCPT') {
          to.push(address);
          reply('250 OK');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 OK');
        else if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
        } else reply('502 Command not implemented');
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    mails: () => [...mails],
    mailsTo: (address) => mails.filter((m) => m.to.includes(address)),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A free TCP port on 127.0.0.1 (for a server that must know its own address up front). */
export async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
