// Runs in Node (preloaded into a lab peer with --import): a server that listens on a port without naming a host
// (as `app.listen(PORT)` in @modelcontextprotocol/server-everything does) listens on 127.0.0.1 instead of every
// interface, and the port it got is printed as `LAB_PEER_PORT <port>` on stderr, since PORT=0 lets the OS choose.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first, second] = args;
  const portOnly = (typeof first === 'number' || typeof first === 'string') && typeof second !== 'string';
  if (portOnly) args.splice(0, 1, Number(first), '127.0.0.1');
  this.once('listening', () => {
    const address = this.address();
    if (address && typeof address === 'object') process.stderr.write(`LAB_PEER_PORT ${address.port}\n`);
  });
  return listen.apply(this, args);
};
