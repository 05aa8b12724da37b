/** Datagram encodings shared by the VMess and VLESS protocols: XUDP (mux.cool frames), packetaddr, length-prefixed. */
export { type AddressCodec, addressCodec, packetAddress, v2rayAddress } from "./address.ts";
export { decodeFrame, encodeUdpFrameHeader } from "./frame.ts";
export {
  FixedPacketConn,
  LengthPacketStream,
  PACKET_ADDR_MAGIC,
  PacketAddrConn,
  type PacketStream,
} from "./packet_stream.ts";
export { MUX_COOL_HOST, XudpClientConn, XudpServerConn } from "./xudp.ts";
