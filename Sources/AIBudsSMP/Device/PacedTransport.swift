import AIBudsSMPClient
import AIBudsSync
import Dispatch
import Foundation

/// An SMP transport that keeps at least `interval` between two datagrams it sends
/// (`SDKConfiguration.bluetoothDataPacketIntervalInMilliseconds`).
///
/// A datagram that comes too early is sent later from a serial queue, in order; a send that fails
/// then is dropped like a lost datagram (the client retransmits).
final class PacedTransport: SMPTransport {
    private let inner: any SMPTransport
    private let interval: Duration
    private let queue = DispatchQueue(label: "aibuds.smp.paced")
    private let nextSend = Locked<ContinuousClock.Instant?>(nil)

    init(_ inner: any SMPTransport, interval: Duration) {
        self.inner = inner
        self.interval = interval
    }

    var mtu: Int { inner.mtu }
    var deliversReliably: Bool { inner.deliversReliably }

    func start(onReceive: @escaping @Sendable (Data) -> Void, onFailure: @escaping @Sendable (any Error) -> Void) throws {
        try inner.start(onReceive: onReceive, onFailure: onFailure)
    }

    func send(_ datagram: Data) throws {
        let now = ContinuousClock.now
        let due = nextSend.withLock { next -> ContinuousClock.Instant in
            let due = max(next ?? now, now)
            next = due + interval
            return due
        }
        guard due > now else {
            try inner.send(datagram)
            return
        }
        let delay = due - now
        let nanoseconds = Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000)
        let inner = self.inner
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            try? inner.send(datagram)
        }
    }

    func close() { inner.close() }
}
