/**
 * Child process of the UDP benchmark: sends `count` copies of a datagram to host:port at a paced
 * `rate` per second (catching up by the clock, never faster), then prints `SENT <n> <ms>`. A
 * `{n}` in the datagram becomes a row number that wraps at 10,000 (as the platform's
 * `%rownum{9999}` does) and `{t}` the current time (ISO 8601, UTC), so that events differ and
 * are as recent as real log rows.
 * Usage: node udp-sender.mjs HOST PORT RATE COUNT DATAGRAM
 */
import { createSocket } from "node:dgram";
import { isIP } from "node:net";

const [host = "127.0.0.1", portText = "9996", rateText = "10000", countText = "10000", datagram = ""] =
  process.argv.slice(2);
const port = Number(portText);
const rate = Number(rateText);
const count = Number(countText);
const numbered = datagram.includes("{n}") || datagram.includes("{t}");
const fixed = Buffer.from(datagram);
let now = new Date().toISOString();
const render = (n: number) => datagram.replace("{n}", String(n % 10_000)).replace("{t}", now);
const socket = createSocket(isIP(host) === 6 ? "udp6" : "udp4");
socket.connect(port, host, () => {
  const started = process.hrtime.bigint();
  let sent = 0;
  let inFlight = 0;
  const done = () => {
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    process.stdout.write(`SENT ${sent} ${elapsedMs.toFixed(1)}\n`);
    socket.close();
  };
  const onSent = () => {
    inFlight -= 1;
    if (sent === count && inFlight === 0) done();
  };
  const tick = () => {
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    const due = Math.min(count, Math.floor((elapsedMs * rate) / 1000));
    now = new Date().toISOString();
    // Bounded bursts keep the socket's own send queue short.
    while (sent < due && inFlight < 2000) {
      sent += 1;
      inFlight += 1;
      socket.send(numbered ? render(sent) : fixed, onSent);
    }
    if (sent < count) setImmediate(tick);
  };
  tick();
});
