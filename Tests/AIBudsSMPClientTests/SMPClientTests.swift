import AIBudsSMPClient
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct SMPClientTests {
    @Test func typedRequestRoundTrips() async throws {
        let (client, device, _) = try makePair()
        async let response = client.send(TestEcho(d: "hello"))
        let request = try await device.nextRequest()
        #expect(request.header.operation == .write)
        #expect(request.header.version == .v2)
        #expect(request.header.group == 0 && request.header.command == 0)
        #expect(try request.payloadMap() == ["d": "hello"])
        try device.reply(to: request, ["r": "hello"])
        #expect(try await response == TestEcho.Response(r: "hello"))
        #expect(client.requestsInFlight == 0)
    }

    @Test func startedRequestsGoOutInOrderAndAreAnsweredLater() async throws {
        let (client, device, _) = try makePair(SMPClientConfiguration(window: 4))
        var pending: [SMPPendingResponse<TestEcho.Response>] = []
        for index in 0..<4 { pending.append(try await client.start(TestEcho(d: "\(index)"))) }
        let requests = try await device.nextRequests(4)
        #expect(try requests.map { try $0.payloadMap()["d"] } == ["0", "1", "2", "3"])
        #expect(requests.map(\.header.sequence) == [0, 1, 2, 3])
        // A fifth waits for a slot; answering one lets it go.
        let fifth = Task { try await client.start(TestEcho(d: "4")) }
        try await Task.sleep(for: .milliseconds(20))
        #expect(client.requestsInFlight == 4)
        for request in requests { try device.reply(to: request, ["r": try request.payloadMap()["d"]!]) }
        for (index, response) in pending.enumerated() { #expect(try await response.response().r == "\(index)") }
        let last = try await device.nextRequest()
        try device.reply(to: last, ["r": "4"])
        #expect(try await fifth.value.response().r == "4")
    }

    @Test func sequenceNumbersWrapAndSkipOnesInFlight() async throws {
        let (client, device, _) = try makePair()
        // Request 0 stays unanswered while 300 more go through one at a time.
        let stuck = Task { try await client.send(TestEcho(d: "stuck")) }
        let first = try await device.nextRequest()
        #expect(first.header.sequence == 0)
        var sequences: [UInt8] = []
        for index in 0..<300 {
            async let response = client.send(TestEcho(d: "\(index)"))
            let request = try await device.nextRequest()
            sequences.append(request.header.sequence)
            try device.reply(to: request, ["r": .text("\(index)")])
            #expect(try await response.r == "\(index)")
        }
        #expect(sequences.prefix(3) == [1, 2, 3])
        #expect(!sequences.contains(0), "sequence 0 is still in flight and must not be reused")
        #expect(sequences[254] == 255 && sequences[255] == 1, "wraps from 255 past the busy 0 to 1")
        try device.reply(to: first, ["r": "stuck"])
        #expect(try await stuck.value.r == "stuck")
    }

    @Test func retransmitsWithTheSameSequenceThenTimesOut() async throws {
        let config = SMPClientConfiguration(retransmitInterval: .milliseconds(500), retransmissions: 2)
        let (client, device, clock) = try makePair(config)
        let task = Task { try await client.send(TestEcho(d: "x")) }
        let original = try await device.nextRequest()
        for _ in 0..<2 {
            await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(500))
            let again = try await device.nextRequest()
            #expect(again == original)
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(499))
        #expect(clock.sleeperCount == 1, "not timed out before the last interval ends")
        clock.advance(by: .milliseconds(1))
        #expect(await smpFailure { try await task.value }?.code == .timeout)
        #expect((client.transport as? InMemoryTransport)?.sentDatagrams.count == 3)
        #expect(client.requestsInFlight == 0)
    }

    @Test func anExplicitTimeoutSpreadsTheRetransmissions() async throws {
        let config = SMPClientConfiguration(retransmitInterval: .seconds(1), retransmissions: 3)
        let (client, device, clock) = try makePair(config)
        let task = Task { try await client.send(TestEcho(d: "x"), timeout: .seconds(20)) }
        _ = try await device.nextRequest()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1, "no retransmission before 20 s / 4 attempts = 5 s")
        clock.advance(by: .seconds(1))
        let again = try await device.nextRequest()
        try device.reply(to: again, ["r": "x"])
        #expect(try await task.value.r == "x")
    }

    @Test func aLostRequestIsAnsweredAfterRetransmission() async throws {
        let clock = ManualClock()
        let transport = InMemoryTransport(link: .losing(.outbound, [0]), clock: clock) { datagram in
            guard let request = try? SMPPacket.decode(datagram), let map = try? request.payloadMap() else { return [] }
            return [request.answer(["r": map["d"] ?? .null]).encoded()]
        }
        let client = try SMPClient(transport: transport, clock: clock)
        let task = Task { try await client.send(TestEcho(d: "again")) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await task.value.r == "again")
        #expect(transport.sentDatagrams.count == 2)
        #expect(transport.sentDatagrams[0] == transport.sentDatagrams[1])
    }

    @Test func aLostResponseIsRecoveredByRetransmission() async throws {
        let clock = ManualClock()
        let transport = InMemoryTransport(link: .losing(.inbound, [0]), clock: clock) { datagram in
            guard let request = try? SMPPacket.decode(datagram) else { return [] }
            return [request.answer(["r": "ok"]).encoded()]
        }
        let client = try SMPClient(transport: transport, clock: clock)
        let task = Task { try await client.send(TestEcho(d: "a")) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await task.value.r == "ok")
    }

    @Test func delayedDatagramsArriveOnTheClock() async throws {
        let clock = ManualClock()
        let transport = InMemoryTransport(link: InMemoryLink(delay: .milliseconds(30)), clock: clock) { datagram in
            guard let request = try? SMPPacket.decode(datagram) else { return [] }
            return [request.answer(["r": "late"]).encoded()]
        }
        let client = try SMPClient(transport: transport, clock: clock)
        let task = Task { try await client.send(TestEcho(d: "a")) }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(59))
        #expect(client.requestsInFlight == 1)
        clock.advance(by: .milliseconds(1))
        #expect(try await task.value.r == "late")
        #expect(transport.sentDatagrams.count == 1)
    }

    @Test func reorderedResponsesReachTheirRequests() async throws {
        let (client, device, _) = try makePair()
        async let a = client.send(TestEcho(d: "a"))
        async let b = client.send(TestEcho(d: "b"))
        async let c = client.send(TestEcho(d: "c"))
        let requests = try await device.nextRequests(3)
        for request in requests.reversed() {
            try device.reply(to: request, ["r": try request.payloadMap()["d"]!])
        }
        #expect(try await [a.r, b.r, c.r] == ["a", "b", "c"])
    }

    @Test func duplicateAndUnknownResponsesAreDropped() async throws {
        let (client, device, _) = try makePair()
        async let first = client.send(TestEcho(d: "1"))
        let request = try await device.nextRequest()
        try device.reply(to: request, ["r": "1"])
        #expect(try await first.r == "1")

        async let second = client.send(TestEcho(d: "2"))
        let next = try await device.nextRequest()
        #expect(next.header.sequence == request.header.sequence &+ 1)
        try device.reply(to: request, ["r": "duplicate of the first"])
        for (group, command) in [(UInt16(9), UInt8(0)), (0, 1)] {
            var foreign = next
            foreign.header.group = group
            foreign.header.command = command
            try device.reply(to: foreign, ["r": "same sequence, other group or command"])
        }
        var readResponse = next
        readResponse.header.operation = .read  // its response op (1) is not a write response
        try device.reply(to: readResponse, ["r": "wrong operation"])
        #expect(client.requestsInFlight == 1)
        try device.reply(to: next, ["r": "2"])
        #expect(try await second.r == "2")
    }

    @Test func theWindowLimitsRequestsInFlight() async throws {
        let (client, device, _) = try makePair(SMPClientConfiguration(window: 2))
        let tasks = (0..<3).map { index in Task { try await client.send(TestEcho(d: "\(index)")) } }
        let firstTwo = try await device.nextRequests(2)
        try await Task.sleep(for: .milliseconds(50))  // real time: the third must stay queued
        #expect(client.requestsInFlight == 2)
        try device.reply(to: firstTwo[1], ["r": try firstTwo[1].payloadMap()["d"]!])
        let third = try await device.nextRequest()
        #expect(client.requestsInFlight == 2)
        try device.reply(to: third, ["r": try third.payloadMap()["d"]!])
        try device.reply(to: firstTwo[0], ["r": try firstTwo[0].payloadMap()["d"]!])
        var answers: Set<String> = []
        for task in tasks { answers.insert(try await task.value.r) }
        #expect(answers == ["0", "1", "2"])
    }

    @Test func cancellationAbandonsTheRequestAndFreesItsSequence() async throws {
        let (client, device, _) = try makePair(SMPClientConfiguration(window: 1))
        let task = Task { try await client.send(TestEcho(d: "doomed")) }
        let request = try await device.nextRequest()
        let queued = Task { try await client.send(TestEcho(d: "queued")) }
        try await Task.sleep(for: .milliseconds(20))
        queued.cancel()
        #expect(await smpFailure { try await queued.value }?.code == .cancelled)
        task.cancel()
        #expect(await smpFailure { try await task.value }?.code == .cancelled)
        #expect(client.requestsInFlight == 0)
        // The late answer is dropped; the window slot is free for the next request.
        try device.reply(to: request, ["r": "doomed"])
        async let next = client.send(TestEcho(d: "next"))
        let nextRequest = try await device.nextRequest()
        #expect(try nextRequest.payloadMap()["d"] == "next")
        try device.reply(to: nextRequest, ["r": "next"])
        #expect(try await next.r == "next")
    }

    @Test func aCancelledTaskDoesNotSend() async throws {
        let (client, _, _) = try makePair()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(TestEcho(d: "never"))
        }
        #expect(await smpFailure { try await task.value }?.code == .cancelled)
        #expect((client.transport as? InMemoryTransport)?.sentDatagrams.isEmpty == true)
        #expect(client.requestsInFlight == 0)
    }

    @Test func v2GroupErrorsAreTyped() async throws {
        let (client, device, _) = try makePair()
        let response = Task { try await client.send(group: 64, command: 1, operation: .read, payload: [:]) }
        let request = try await device.nextRequest()
        try device.reply(to: request, ["err": ["group": 64, "rc": 2]])
        let error = await smpFailure { try await response.value }
        #expect(error?.code == .device(SMPDeviceError(group: 64, rc: 2, version: .v2)))
        #expect(error?.deviceError?.projectReturnCode == .notFound)
        #expect(client.version == .v2)
    }

    @Test func v1ErrorsAreTypedWithoutAGroup() async throws {
        let (client, device, _) = try makePair(SMPClientConfiguration(version: .v1))
        let response = Task { try await client.send(group: 0, command: 9, operation: .read, payload: [:]) }
        let request = try await device.nextRequest()
        #expect(request.header.version == .v1)
        try device.reply(to: request, ["rc": 8])
        #expect(await smpFailure { try await response.value }?.deviceError?.mgmtError == .notSupported)
    }

    @Test func aV1OnlyDeviceMakesTheClientFallBackToV1() async throws {
        let (client, device, _) = try makePair()
        async let response = client.send(TestEcho(d: "old"))
        let v2 = try await device.nextRequest()
        #expect(v2.header.version == .v2)
        try device.reply(to: v2, ["rc": 13], version: .v1)  // UNSUPPORTED_TOO_NEW, in v1 framing
        let v1 = try await device.nextRequest()
        #expect(v1.header.version == .v1)
        #expect(v1.header.sequence != v2.header.sequence)
        #expect(v1.payload == v2.payload)
        try device.reply(to: v1, ["r": "old"])
        #expect(try await response.r == "old")
        #expect(client.version == .v1)

        async let later = client.send(TestEcho(d: "later"))
        let next = try await device.nextRequest()
        #expect(next.header.version == .v1)
        try device.reply(to: next, ["r": "later"])
        _ = try await later
    }

    @Test func malformedDatagramsAreDroppedAndMalformedPayloadsFailTheRequest() async throws {
        let (client, device, _) = try makePair()
        async let first = client.send(TestEcho(d: "1"))
        let request = try await device.nextRequest()
        try device.sendRaw(Data([0x01, 0x02, 0x03]))  // shorter than a header
        var wrongLength = SMPPacket(operation: .writeResponse, group: 0, sequence: request.header.sequence,
                                        command: 0, cbor: ["r": "1"]).encoded()
        wrongLength.append(0)  // one byte more than the header says
        try device.sendRaw(wrongLength)
        try device.sendRaw(Data([0xFF, 0, 0, 0, 0, 0, request.header.sequence, 0]))  // op 7
        #expect(client.requestsInFlight == 1, "nothing above matched the request")
        try device.reply(to: request, ["r": "1"])
        #expect(try await first.r == "1")

        let second = Task { try await client.send(TestEcho(d: "2")) }
        let next = try await device.nextRequest()
        try device.sendRaw(SMPPacket(operation: .writeResponse, group: 0, sequence: next.header.sequence,
                                     command: 0, payload: Data([0x61, 0x61])).encoded())  // text, not a map
        #expect(await smpFailure { try await second.value }?.code == .malformedResponse)

        let third = Task { try await client.send(TestEcho(d: "3")) }
        let last = try await device.nextRequest()
        try device.reply(to: last, ["r": 3])  // a number where text belongs
        #expect(await smpFailure { try await third.value }?.code == .malformedResponse)
    }

    @Test func closeFailsEverythingInFlightAndLater() async throws {
        let (client, device, _) = try makePair(SMPClientConfiguration(window: 1))
        let inFlight = Task { try await client.send(TestEcho(d: "a")) }
        _ = try await device.nextRequest()
        let waiting = Task { try await client.send(TestEcho(d: "b")) }
        try await Task.sleep(for: .milliseconds(20))
        client.close()
        #expect(await smpFailure { try await inFlight.value }?.code == .closed)
        #expect(await smpFailure { try await waiting.value }?.code == .closed)
        #expect(await smpFailure { try await client.send(TestEcho(d: "c")) }?.code == .closed)
    }

    @Test func aRequestLargerThanTheMTUIsRefused() async throws {
        let (client, _, _) = try makePair(SMPClientConfiguration(mtu: 100))
        #expect(await smpFailure { try await client.send(TestEcho(d: String(repeating: "x", count: 200))) }?.code == .invalidRequest)
        #expect((client.transport as? InMemoryTransport)?.sentDatagrams.isEmpty == true)
        #expect(client.mtu == 100)
    }
}
