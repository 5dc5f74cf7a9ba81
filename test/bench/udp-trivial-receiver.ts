/**
 * Child process of the UDP benchmark: the ceiling to compare Steward with. A node:dgram socket
 * with the same receive buffer that only splits each datagram on ";" and counts. Prints
 * `READY <port>`; answers `{received}` to the parent's "count" message over IPC.
 */
import { createSocket } from "node:dgram";

const receiveBufferBytes = Number(process.argv[2] ?? 8 * 1024 * 1024);
const socket = createSocket("udp4");
let received = 0;
let fields = 0;
socket.on("message", (datagram) => {
  received += 1;
  fields += datagram.toString("utf8").split(";").length;
});
socket.bind(0, "127.0.0.1", () => {
  socket.setRecvBufferSize(receiveBufferBytes);
  process.stdout.write(`READY ${socket.address().port}\n`);
});
process.on("message", (message) => {
  if (message === "count") process.send?.({ received, fields });
});
process.on("SIGTERM", () => socket.close(() => process.exit(0)));
