import AIBuds
import AIBudsDBus
import AIBudsEmulator
import AIBudsFoundation
import AIBudsLog
import AIBudsSMP
import AIBudsSMPClient
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

@testable import AIBudsBlueZ

/// What the BLE link promises the SMP session above it: over the acquired GATT socket a request is
/// never sent twice (`deliversReliably`), and an old link's `Disconnect` never ends a newer link.
@Suite(.sdkState(.shared), .timeLimit(.minutes(3))) struct BlueZSessionTests {
    private func connect(_ fixture: BlueZFixture) async throws -> BlueZGATTTransport {
        try await BlueZConnector(busAddress: fixture.bus.address, adapterName: nil, timeout: .seconds(10), logger: NullLogService())
            .open(address: fixture.standIn.address)
    }

    /// A device that does not answer: over the acquired socket the session sends the request once;
    /// over `WriteValue` (which may fail write by write) it retransmits three times, as over UDP.
    @Test(arguments: [true, false])
    func theAcquiredSocketIsNeverRetransmittedOn(acquire: Bool) async throws {
        var options = BlueZStandIn.Options()
        options.acquire = acquire
        let fixture = try await BlueZFixture.start(options: options)
        let transport = try await connect(fixture)
        #expect(transport.deliversReliably == acquire)
        let session = try SMPDeviceSession(
            transport: transport, address: try DeviceAddress(parsing: fixture.deviceAddress), commandTimeout: .seconds(1),
            eventWait: .milliseconds(400), logger: NullLogService())
        fixture.standIn.setAnswering(false)
        await #expect(throws: AIBudsError.self) { _ = try await session.request(DeviceInfoRequest(), timeout: .seconds(3)) }
        fixture.standIn.setAnswering(true)
        // Both paths keep order, so every copy of the first request arrived before this one.
        let info = try await session.request(DeviceInfoRequest(), timeout: .seconds(20))
        #expect(info.mac == fixture.standIn.address)
        #expect(fixture.standIn.receivedPackets == (acquire ? 2 : 5))
        await session.close()
        await fixture.stop()
    }

    /// A link that drops between the client's reading of the object tree and its acquisition of
    /// the SMP characteristic (the characteristic is gone: `UnknownObject`) is opened again from
    /// the start: the device is found disconnected and connected anew.
    @Test func aLinkThatDropsAtAcquisitionIsOpenedAgain() async throws {
        var options = BlueZStandIn.Options()
        options.linkDropsAtFirstAcquire = true
        let fixture = try await BlueZFixture.start(options: options)
        let transport = try await connect(fixture)
        #expect(transport.acquiredWrite && transport.acquiredNotify)
        let client = try SMPClient(transport: transport)
        #expect(try await client.send(DeviceInfoRequest()).mac == fixture.standIn.address)
        #expect(fixture.standIn.isConnected)
        client.close()
        await fixture.stop()
    }

    /// A link closed while BlueZ is slow to tear it down: the next link to the device waits for
    /// that `Disconnect`, so the `Disconnect` cannot end the new link.
    @Test func aNewLinkWaitsForTheOldLinksDisconnect() async throws {
        let fixture = try await BlueZFixture.start()
        let standIn = fixture.standIn
        let first = try await connect(fixture)
        let firstClient = try SMPClient(transport: first)
        _ = try await firstClient.send(DeviceInfoRequest())
        standIn.holdDisconnects()
        firstClient.close()
        try await eventually("the old link's Disconnect to reach BlueZ") { standIn.heldDisconnects == 1 }
        let reads = standIn.objectTreeReads
        let opening = Task { try await connect(fixture) }
        // The new attempt has started (it reads the object tree first); now BlueZ carries out the
        // old Disconnect.
        try await eventually("the new link attempt to start") { standIn.objectTreeReads > reads }
        standIn.releaseDisconnects()
        let second = try await opening.value
        let secondClient = try SMPClient(transport: second)
        let info = try await secondClient.send(DeviceInfoRequest())
        #expect(info.mac == standIn.address)
        #expect(standIn.isConnected)
        #expect(!secondClient.isClosed)
        secondClient.close()
        await fixture.stop()
    }
}

/// Pairing (bonding) before SMP: when the characteristic needs it, when asked to, never; BlueZ's
/// pairing errors as SDK codes.
@Suite(.timeLimit(.minutes(3))) struct BlueZPairingTests {
    private func connect(_ fixture: BlueZFixture, pairing: BlueZPairing = .whenRequired) async throws -> BlueZGATTTransport {
        try await BlueZConnector(busAddress: fixture.bus.address, adapterName: nil, timeout: .seconds(10), logger: NullLogService(),
                                 pairing: pairing)
            .open(address: fixture.standIn.address)
    }

    @Test func aCharacteristicThatNeedsABondIsPairedFirst() async throws {
        var options = BlueZStandIn.Options()
        options.requiresPairing = true
        let fixture = try await BlueZFixture.start(options: options)
        let transport = try await connect(fixture)
        #expect(fixture.standIn.isPaired && fixture.standIn.pairCalls == 1)
        #expect(transport.acquiredWrite && transport.acquiredNotify)
        let client = try SMPClient(transport: transport)
        #expect(try await client.send(DeviceInfoRequest()).mac == fixture.standIn.address)
        client.close()
        // Bonded now: the next link pairs no more.
        try await eventually("the first link to end") { !fixture.standIn.isConnected }
        let again = try await connect(fixture)
        #expect(fixture.standIn.pairCalls == 1)
        again.close()
        await fixture.stop()
    }

    @Test func pairingAlwaysPairsAnUnpairedDeviceOnlyOnce() async throws {
        let fixture = try await BlueZFixture.start()
        let transport = try await connect(fixture, pairing: .always)
        #expect(fixture.standIn.isPaired && fixture.standIn.pairCalls == 1)
        transport.close()
        var options = BlueZStandIn.Options()
        options.paired = true
        let bonded = try await BlueZFixture.start(options: options)
        let other = try await connect(bonded, pairing: .always)
        #expect(bonded.standIn.pairCalls == 0)
        other.close()
        await bonded.stop()
        await fixture.stop()
    }

    @Test func pairingErrorsAreSDKCodes() async throws {
        var rejected = BlueZStandIn.Options()
        rejected.requiresPairing = true
        rejected.pairingRejected = true
        let refusing = try await BlueZFixture.start(options: rejected)
        let refusal = await #expect(throws: AIBudsError.self) { try await connect(refusing) }
        #expect(refusal?.code == .peripheralNotConnected)
        #expect((refusal?.underlying as? DBusError)?.name == "org.bluez.Error.AuthenticationRejected")
        #expect(refusal?.message.contains("pairing") == true)
        await refusing.stop()

        var failing = BlueZStandIn.Options()
        failing.requiresPairing = true
        failing.pairingFails = true
        let broken = try await BlueZFixture.start(options: failing)
        let failure = await #expect(throws: AIBudsError.self) { try await connect(broken) }
        #expect((failure?.underlying as? DBusError)?.name == "org.bluez.Error.AuthenticationFailed")
        await broken.stop()

        // Not allowed to pair: the device's "Not paired" comes back typed, and nothing paired.
        var needs = BlueZStandIn.Options()
        needs.requiresPairing = true
        let unpaired = try await BlueZFixture.start(options: needs)
        let refused = await #expect(throws: AIBudsError.self) { try await connect(unpaired, pairing: .never) }
        #expect(refused?.message.contains("Not paired") == true)
        #expect(unpaired.standIn.pairCalls == 0 && !unpaired.standIn.isPaired)
        await unpaired.stop()
    }

    @Test(arguments: [
        ("org.bluez.Error.AuthenticationFailed", SdkErrorCode.peripheralNotConnected),
        ("org.bluez.Error.AuthenticationRejected", .peripheralNotConnected),
        ("org.bluez.Error.AuthenticationCanceled", .operationCanceled),
        ("org.bluez.Error.AuthenticationTimeout", .bleCommandExecFailedDueToTimeout),
        ("org.bluez.Error.AlreadyExists", .peripheralNotConnected),
        ("org.bluez.Error.NotReady", .scanningFailedDueToBluetoothPoweredOff),
        ("org.freedesktop.DBus.Error.AccessDenied", .scanningFailedDueToBluetoothUnauthorized),
    ])
    func blueZErrorNamesMapToSDKCodes(_ name: String, _ code: SdkErrorCode) {
        let error = BlueZ.sdkError(DBusError(name: name, message: "m"), "step")
        #expect(error.code == code)
        #expect(error.message.hasPrefix("step: "))
    }
}
