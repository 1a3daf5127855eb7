import AIBudsCBOR
import AIBudsWire
import Foundation
import Testing

/// The SMP header, packets and error payloads.
@Suite struct SMPFramingTests {
    @Test func headerHasZephyrsLayout() throws {
        let header = SMPHeader(operation: .write, version: .v2, length: 0x0102, group: 0x4142, sequence: 7, command: 3)
        #expect(header.encoded().hexString == "0a00010241420703")                // ver 1 << 3 | op 2
        #expect(try SMPHeader.decode(header.encoded()) == header)
        let v1Read = SMPHeader(operation: .read, version: .v1, length: 0, group: 0, sequence: 255, command: 6)
        #expect(v1Read.encoded().hexString == "000000000000ff06")
        // Reserved bits are ignored on decode.
        #expect(try SMPHeader.decode(hex("e900000000080001")).operation == .readResponse)
    }

    @Test func packetRoundTripsAndChecksLength() throws {
        let packet = SMPPacket(operation: .read, version: .v2, group: SMPGroupID.file, sequence: 9, command: 0,
                               cbor: ["off": 0, "name": "/media/a"])
        let bytes = packet.encoded()
        #expect(bytes.hexString == "08000014000809" + "00" + "a2636f666600646e616d65682f6d656469612f61")
        #expect(try SMPPacket.decode(bytes) == packet)
        #expect(try SMPPacket.decode(bytes).payloadMap()["name"]?.string == "/media/a")
    }

    @Test func malformedDatagramsAreRejected() {
        func code(_ text: String) -> SMPPacketError.Code? {
            do { _ = try SMPPacket.decode(hex(text)); return nil } catch { return error.code }
        }
        #expect(code("0800000000") == .shortHeader)
        #expect(code("080000010000000000") == nil)
        #expect(code("08000002000000") == .shortHeader)
        #expect(code("0800000200000000a0") == .lengthMismatch)
        #expect(code("0800000000000000a0") == .lengthMismatch)
        #expect(code("0c00000000000000") == .invalidOperation)
        #expect(code("1000000000000000") == .unsupportedVersion)
    }

    @Test func payloadMustBeOneMap() throws {
        let empty = SMPPacket(operation: .read, group: 0, sequence: 0, command: 6, payload: Data())
        #expect(try empty.payloadMap() == [:])
        let packet = SMPPacket(operation: .read, group: 0, sequence: 0, command: 0, payload: Data([0x80]))
        #expect(throws: CBORError.self) { try packet.payloadMap() }
        let trailing = SMPPacket(operation: .read, group: 0, sequence: 0, command: 0, payload: Data([0xA0, 0xA0]))
        #expect(throws: CBORError(.trailingBytes, offset: 1, "1 bytes after the end of the item")) { try trailing.payloadMap() }
    }

    @Test func responseHeaderEchoesTheRequest() {
        let request = SMPHeader(operation: .read, version: .v1, length: 5, group: 65, sequence: 200, command: 3)
        let response = request.response(length: 2)
        #expect(response == SMPHeader(operation: .readResponse, version: .v1, length: 2, group: 65, sequence: 200, command: 3))
        #expect(SMPOperation.write.response == .writeResponse)
    }

    @Test func deviceErrorsReadAndWriteBothVersions() throws {
        let v2 = SMPDeviceError(group: 65, rc: 3, version: .v2)
        #expect(v2.payload().encoded().hexString == "a1" + "63657272" + "a2" + "6272630" + "3" + "6567726f7570" + "1841")
        #expect(SMPDeviceError.from(response: v2.payload(), version: .v2) == v2)
        #expect(v2.projectReturnCode == .staleGeneration)

        let v1 = SMPDeviceError(group: nil, rc: 8, version: .v1)
        #expect(v1.payload().encoded().hexString == "a1627263" + "08")
        #expect(SMPDeviceError.from(response: v1.payload(), version: .v1) == v1)
        #expect(v1.mgmtError == .notSupported)

        // A v2 group error asked of a v1 exchange is sent as plain rc.
        #expect(SMPDeviceError(group: 65, rc: 2, version: .v1).payload() == ["rc": 2])
        // SMP-level errors arrive as rc in v2 too.
        #expect(SMPDeviceError.from(response: ["rc": 8], version: .v2) == SMPDeviceError(group: nil, rc: 8, version: .v2))
        // Success is no error.
        #expect(SMPDeviceError.from(response: ["rc": 0], version: .v1) == nil)
        #expect(SMPDeviceError.from(response: ["err": ["group": 64, "rc": 0]], version: .v2) == nil)
        #expect(SMPDeviceError.from(response: ["off": 0], version: .v2) == nil)
    }
}
