import AIBudsEmulator
import AIBudsNet
import AIBudsWire
import Foundation
import Testing

/// Datagrams from a hostile client, sent to a real emulator over UDP: each gets its error answer
/// and the emulator keeps serving (docs/reliability.md, "One datagram kills the emulator").
@Suite("Hostile datagrams") struct HostileDatagramTests {
    /// `Data` from a hexadecimal string.
    private func bytes(_ hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return data
    }

    @Test func aDeviceTimeOfInt64MinIsRefusedAndTheEmulatorKeepsAnswering() async throws {
        let (emulator, address) = try startEmulator()
        defer { emulator.stop() }
        let probe = try UDPProbe(to: address)
        // Device `time` write (v2, group 64, sequence 0xE5, command 4) with `time` = Int64.min.
        try probe.send(bytes("0a00000f0040e504a16474696d653b7fffffffffffffff"))
        let answer = try SMPPacket.decode(try #require(try await probe.receive().first))
        #expect(answer.header.group == 64 && answer.header.command == 4 && answer.header.sequence == 0xE5)
        #expect(SMPDeviceError.from(response: try answer.payloadMap(), version: .v2) == SMPDeviceError(group: 64, rc: 6, version: .v2))
        let time = try await probe.call(DeviceTimeReadRequest(), sequence: 1)
        #expect(time != nil, "the emulator stopped answering")
    }

    @Test func timesAtEveryIntegerEdgeAreAnsweredNotTrapped() async throws {
        let (emulator, address) = try startEmulator()
        defer { emulator.stop() }
        let probe = try UDPProbe(to: address)
        for (index, value) in [Int.min, Int.min + 1, -(1 << 40), 1 << 40, Int.max].enumerated() {
            let request = DeviceTimeWriteRequest(time: value)
            try probe.send(try request.packet(sequence: UInt8(index + 10)).encoded())
            let answer = try SMPPacket.decode(try #require(try await probe.receive().first))
            _ = probe.take()
            #expect(SMPDeviceError.from(response: try answer.payloadMap(), version: .v2)?.rc == 6, "time \(value)")
        }
        #expect(try await probe.call(DeviceTimeReadRequest(), sequence: 99) != nil)
    }
}
