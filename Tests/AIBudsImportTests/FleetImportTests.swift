import AIBudsDigest
import AIBudsFoundation
import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing

@testable import AIBuds
@testable import AIBudsImport

/// Many devices on one station: ``MediaImportScheduler`` against several real emulators over real
/// sockets, and `aibuds media import --device A --device B` and `aibuds station` as processes.
extension SDKTests {
    @Suite("Fleet import: many devices at once", .timeLimit(.minutes(3)))
    struct FleetImportTests {
        /// Every device imports into its own folder with its own ledger; the slow device (the
        /// `wifi` link, 25 MB/s, a 40 MB file) does not hold up the two fast ones, which finish first.
        @Test func devicesImportAtOnceAndASlowLinkStarvesNobody() async throws {
            let slow = try ImportEmulatorFixture([.video("BIG.mp4", 40_000_000, sixaxis: false)], configure: {
                $0.name = "Slow Glasses"
                $0.link = .wifi
            })
            let photos: [ImportTestMedia] = (1...6).map { .photo("IMG_\($0).jpg", UInt64(200_000 * $0)) }
            let fast = try (1...2).map { index in
                try ImportEmulatorFixture(photos, configure: { $0.name = "Fast \(index)" }, test: "fast-\(index)")
            }
            defer { ([slow] + fast).forEach { $0.stop() } }
            let devices = try await [slow.connect()] + fast.asyncMap { try await $0.connect() }
            let station = slow.destination("station")
            let order = Locked<[String]>([])
            let results = await MediaImportScheduler.importAll(
                from: devices, configuration: .init(destination: .folder(station), stationTransfers: 6)
            ) { event in
                if case .finished(let result) = event { order.withLock { $0.append(result.deviceID) } }
            }
            #expect(results.count == 3)
            for (fixture, (device, result)) in zip([slow] + fast, zip(devices, results)) {
                #expect(result.success, "\(result.error.map { "\($0)" } ?? "") \(result.result?.error.map { "\($0)" } ?? "")")
                #expect(result.deviceID == device.mediaImportDeviceID)
                #expect(result.destination == station.appendingPathComponent(device.mediaImportDeviceID))
                // Every file, byte for byte, in the device's own folder; its own ledger has them all.
                let ledger = try ImportLedger(deviceID: result.deviceID, directory: result.destination.appendingPathComponent(".aibuds"))
                #expect(ledger.entries.count == result.requested.count)
                for file in result.requested {
                    let local = result.destination.appendingPathComponent(file.fileName)
                    let device = try fixture.sha256(of: file.fileName)
                    #expect(try SHA256.hash(fileAt: local) == device)
                    #expect(ledger.entry(named: file.fileName)?.sha256 == device.hexString)
                }
            }
            // The fast devices were not made to wait for the slow one.
            #expect(order.withLock { $0 }.last == devices[0].mediaImportDeviceID, "\(order.withLock { $0 })")

            // Again with onlyNew: every device's ledger skips everything.
            let again = await MediaImportScheduler.importAll(
                from: devices, configuration: .init(destination: .folder(station), onlyNew: true, reportsProgress: false))
            #expect(again.allSatisfy { $0.success && $0.requested.isEmpty && !$0.skipped.isEmpty })
        }

        /// Devices submitted while others import share the station's transfers: each gets its
        /// share when it starts, and one device is never started twice.
        @Test func sharesAndDuplicateSubmissions() async throws {
            let fixtures = try (1...2).map { index in
                try ImportEmulatorFixture([.photo("A.jpg", 3_000_000)], configure: {
                    $0.name = "Share \(index)"
                    $0.link = .wifi
                }, test: "share-\(index)")
            }
            defer { fixtures.forEach { $0.stop() } }
            let devices = try await fixtures.asyncMap { try await $0.connect() }
            let scheduler = MediaImportScheduler(configuration: .init(destination: .folder(fixtures[0].destination("s")), stationTransfers: 8))
            let shares = Task {
                var shares: [Int] = []
                for await event in scheduler.events {
                    if case .started(_, _, _, _, let transfers) = event { shares.append(transfers) }
                }
                return shares
            }
            let first = scheduler.submit(devices[0])
            let twice = scheduler.submit(devices[0])
            #expect(scheduler.isImporting(deviceID: devices[0].mediaImportDeviceID))
            let second = scheduler.submit(devices[1])
            scheduler.finish()
            let results = [await first.value, await twice.value, await second.value]
            #expect(results.allSatisfy { $0.success })
            let granted = await shares.value
            #expect(granted == [4, 4])
        }

        /// A device that starts alone gets no more than the per-device limit, not the whole
        /// station's transfers: the destination's preferred number, or the one given.
        @Test func aDeviceAloneTakesOnlyItsLimit() async throws {
            let fixture = try ImportEmulatorFixture((1...8).map { .photo("IMG_\($0).jpg", 20_000) })
            defer { fixture.stop() }
            let device = try await fixture.connect()
            let granted = Locked<[Int]>([])
            for limit in [nil, 2] {
                let destination = MediaImportDestination.folder(fixture.destination("limit-\(limit ?? 0)"))
                let results = await MediaImportScheduler.importAll(
                    from: [device], configuration: .init(destination: destination, stationTransfers: 16, transfersPerDevice: limit)
                ) { event in
                    if case .started(_, _, _, _, let transfers) = event { granted.withLock { $0.append(transfers) } }
                }
                #expect(results.allSatisfy { $0.success })
            }
            #expect(granted.withLock { $0 } == [6, 2])
        }
    }
}

extension Array {
    /// `map` with an async transform, in order.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var mapped: [T] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
