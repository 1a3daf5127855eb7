import AIBudsDBus
import AIBudsEmulator
import AIBudsFoundation
import AIBudsLog
import AIBudsSync
import AIBudsSMPClient
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

@testable import AIBudsBlueZ

/// SMP over GATT through the BlueZ stand-in, below the SDK: connection, both data paths, and what
/// a radio does to a link (loss, adapter or device gone, a characteristic that disappears,
/// malformed notifications).
@Suite(.timeLimit(.minutes(3))) struct BlueZLinkTests {
    private func connect(_ fixture: BlueZFixture, timeout: Duration = .seconds(10)) async throws -> BlueZGATTTransport {
        try await BlueZConnector(busAddress: fixture.bus.address, adapterName: nil, timeout: timeout, logger: NullLogService())
            .open(address: fixture.standIn.address)
    }

    private func client(_ transport: BlueZGATTTransport) throws -> SMPClient {
        try SMPClient(transport: transport, configuration: SMPClientConfiguration(retransmitInterval: .seconds(2)))
    }

    @Test func acquiredSocketsCarryRequestsAndFramedResponses() async throws {
        let fixture = try await BlueZFixture.start(link: .ble)
        let transport = try await connect(fixture)
        #expect(transport.acquiredWrite && transport.acquiredNotify)
        #expect(transport.frameSize == 244)
        let client = try client(transport)
        let info = try await client.send(DeviceInfoRequest())
        #expect(info.mac == fixture.standIn.address)
        // A Device info response is longer than one ATT value: it was put together from several.
        client.setMTU(Int(info.mtu))
        let listing = try await client.mediaListing(type: nil)
        #expect(listing.files.count == fixture.emulator.device.store.list().count)
        client.close()
        await fixture.stop()
    }

    @Test func withoutAcquireItFallsBackToWriteValueAndStartNotify() async throws {
        var options = BlueZStandIn.Options()
        options.acquire = false
        let fixture = try await BlueZFixture.start(
            profile: .watch, files: [.generated("REC_FALLBACK.opus", type: .audio, size: 40_000)], options: options)
        let transport = try await connect(fixture)
        #expect(!transport.acquiredWrite && !transport.acquiredNotify)
        #expect(transport.frameSize == 514)
        let client = try client(transport)
        let info = try await client.send(DeviceInfoRequest())
        client.setMTU(Int(info.mtu))
        var received = Data()
        let result = try await client.downloadFile(path: "/media/REC_FALLBACK.opus") { received.append($0) }
        let expected = try fixture.content(of: "REC_FALLBACK.opus")
        #expect(result.verified && received == expected)
        client.close()
        await fixture.stop()
    }

    @Test func linkLossMidTransferFailsTheTransfer() async throws {
        let fixture = try await BlueZFixture.start(
            profile: .watch, files: [.generated("REC_LOSS.opus", type: .audio, size: 400_000)], link: .ble)
        let transport = try await connect(fixture)
        let client = try client(transport)
        client.setMTU(976)
        let standIn = fixture.standIn
        let dropped = Locked(false)
        await #expect(throws: SMPError.self) {
            _ = try await client.downloadFile(path: "/media/REC_LOSS.opus", progress: { progress in
                if progress.completed > 50_000, !dropped.withLock({ $0 }) {
                    dropped.withLock { $0 = true }
                    standIn.dropLink()
                }
            }, sink: { _ in })
        }
        #expect(dropped.withLock { $0 })
        // The transfer may fail first on a write to the closed socket; the transport's failure (the
        // notification socket closed, Connected false) closes the client right after.
        let start = ContinuousClock.now
        while !client.isClosed, ContinuousClock.now - start < .seconds(20) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(client.isClosed)
        #expect(!standIn.isConnected)
        await fixture.stop()
    }

    @Test(arguments: ["adapter", "device", "characteristic", "bluez"])
    func theLinkEndsWhenBlueZLosesItsObjects(_ what: String) async throws {
        let fixture = try await BlueZFixture.start()
        let transport = try await connect(fixture)
        let client = try client(transport)
        _ = try await client.send(DeviceInfoRequest())
        switch what {
        case "adapter": fixture.standIn.removeAdapter()
        case "device": fixture.standIn.removeDevice()
        case "characteristic": fixture.standIn.removeCharacteristic()
        default: fixture.standIn.stop()
        }
        // The transport fails at the signal: every later request fails at once, without a timeout.
        let start = ContinuousClock.now
        while !client.isClosed, ContinuousClock.now - start < .seconds(20) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(client.isClosed)
        await #expect(throws: SMPError.self) { _ = try await client.send(DeviceInfoRequest()) }
        await fixture.stop()
    }

    @Test func malformedNotificationsAreDroppedAndTheLinkGoesOn() async throws {
        let fixture = try await BlueZFixture.start()
        let transport = try await connect(fixture)
        let client = try client(transport)
        // Garbage: too short, a request operation, a header claiming more than ever comes.
        fixture.standIn.injectNotification(Data([0x01, 0x02]))
        fixture.standIn.injectNotification(Data([0x02, 0, 0, 4, 0, 0, 0, 0, 1, 2, 3, 4]))
        fixture.standIn.injectNotification(Data(repeating: 0xFF, count: 40))
        let info = try await client.send(DeviceInfoRequest())
        #expect(info.mac == fixture.standIn.address)
        client.close()
        await fixture.stop()
    }

    @Test func connectErrorsMapToTheSDKCodes() async throws {
        var off = BlueZStandIn.Options()
        off.powered = false
        let poweredOff = try await BlueZFixture.start(options: off)
        await #expect { try await connect(poweredOff) } throws: { ($0 as? AIBudsError)?.code == .scanningFailedDueToBluetoothPoweredOff }
        await poweredOff.stop()

        var failing = BlueZStandIn.Options()
        failing.connectFails = true
        let unreachable = try await BlueZFixture.start(options: failing)
        // The device is not known until discovery finds it; then Connect fails.
        await #expect { try await connect(unreachable) } throws: { ($0 as? AIBudsError)?.code == .peripheralNotConnected }
        await unreachable.stop()

        var other = BlueZStandIn.Options()
        other.withoutSMPService = true
        let noSMP = try await BlueZFixture.start(options: other)
        await #expect { try await connect(noSMP) } throws: { ($0 as? AIBudsError)?.code == .deviceNotSupport }
        await noSMP.stop()

        var denied = BlueZStandIn.Options()
        denied.accessDenied = true
        let outsidePolicy = try await BlueZFixture.start(options: denied)
        await #expect { try await connect(outsidePolicy) } throws: {
            ($0 as? AIBudsError)?.code == .scanningFailedDueToBluetoothUnauthorized
        }
        await outsidePolicy.stop()

        let fixture = try await BlueZFixture.start()
        fixture.standIn.removeAdapter()
        await #expect { try await connect(fixture) } throws: {
            ($0 as? AIBudsError)?.code == .scanningFailedDueToBluetoothUnsupported
        }
        await fixture.stop()

        let noBlueZ = try await onOwnThread { try PrivateBus() }
        await #expect {
            try await BlueZConnector(busAddress: noBlueZ.address, adapterName: nil, timeout: .seconds(5), logger: NullLogService())
                .open(address: "AA:BB:CC:DD:EE:FF")
        } throws: { ($0 as? AIBudsError)?.code == .scanningFailedDueToBluetoothUnsupported }
        try await onOwnThread { noBlueZ.stop() }
    }

    @Test func servicesThatNeverResolveTimeOut() async throws {
        var options = BlueZStandIn.Options()
        options.servicesNeverResolve = true
        let fixture = try await BlueZFixture.start(options: options)
        await #expect { try await connect(fixture, timeout: .seconds(1)) } throws: {
            ($0 as? AIBudsError)?.code == .bleCommandExecFailedDueToTimeout
        }
        await fixture.stop()
    }

    @Test func aDeviceThatNeverAppearsTimesOut() async throws {
        let fixture = try await BlueZFixture.start()
        await #expect {
            try await BlueZConnector(busAddress: fixture.bus.address, adapterName: nil, timeout: .seconds(1), logger: NullLogService())
                .open(address: "AA:BB:CC:DD:EE:FF")
        } throws: { ($0 as? AIBudsError)?.code == .peripheralUnavailable }
        await fixture.stop()
    }
}

/// The SMP packet reassembly of notifications.
@Suite struct SMPReassemblerTests {
    private func packet(_ length: Int, op: UInt8 = 3) -> Data {
        Data([op, 0, UInt8(length >> 8), UInt8(length & 0xFF), 0, 64, 1, 0]) + Data(repeating: 0xA0, count: length)
    }

    @Test func packetsSpanValuesAndValuesHoldPackets() {
        var reassembler = SMPReassembler()
        let now = ContinuousClock.now
        let big = packet(600)
        #expect(reassembler.add(big.prefix(244), at: now).isEmpty)
        #expect(reassembler.add(big.dropFirst(244).prefix(244), at: now).isEmpty)
        #expect(reassembler.add(big.dropFirst(488), at: now) == [big])
        let two = packet(3) + packet(5)
        #expect(reassembler.add(two, at: now) == [packet(3), packet(5)])
        #expect(reassembler.dropped == 0)
    }

    @Test func garbageIsDroppedAndAStalePartialPacketExpires() {
        var reassembler = SMPReassembler()
        let now = ContinuousClock.now
        #expect(reassembler.add(Data([1, 2, 3]), at: now).isEmpty)
        #expect(reassembler.add(packet(4, op: 2), at: now).isEmpty)
        #expect(reassembler.dropped == 3 + 12)
        #expect(reassembler.add(packet(900).prefix(100), at: now).isEmpty)
        #expect(reassembler.add(packet(2), at: now + .seconds(3)) == [packet(2)])
        #expect(reassembler.dropped == 3 + 12 + 100)
    }
}
