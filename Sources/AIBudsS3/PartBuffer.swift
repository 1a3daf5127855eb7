import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of one part while it fills, in memory mapped for it alone: its pages are taken only
/// as bytes arrive and are returned to the system as soon as the part is sent.
///
/// A part holds one of the station's places (``PartBudget``, shared fairly between devices)
/// from its first byte until it is sent, so the parts in memory over every device stay bounded: a
/// download that would start one more waits (its device keeps sending its other files). Measured with the eight-device
/// benchmark (docs/benchmarks.md): 8 MiB parts from the heap stayed in glibc's per-thread arenas
/// once freed, and without a budget each of the 42 transfers held two parts: 873 MiB.
struct PartBuffer: ~Copyable {
    private var base: UnsafeMutableRawPointer?
    private let capacity: Int
    private let budget: PartBudget
    /// The device whose place it takes.
    private let device: String
    private var holdsPlace = false
    /// Bytes in the part.
    private(set) var count = 0

    /// An empty part of up to `capacity` bytes, taking a place of `device` in `budget` at its
    /// first byte.
    init(capacity: Int, budget: PartBudget, device: String) {
        self.capacity = max(1, capacity)
        self.budget = budget
        self.device = device
        let mapped = mmap(nil, self.capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        base = mapped == MAP_FAILED ? nil : mapped
    }

    deinit {
        if let base { munmap(base, capacity) }
        if holdsPlace { budget.give(for: device) }
    }

    /// Room left.
    var room: Int { capacity - count }

    /// Appends `bytes` (at most `room`).
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base else { throw S3Error(.configuration, "no memory for a part of \(capacity) bytes") }
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        precondition(bytes.count <= room, "a part takes no more than its capacity")
        if !holdsPlace {
            budget.take(for: device)
            holdsPlace = true
        }
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// The part's bytes as `Data` that owns the mapping (unmapped when the last copy goes).
    consuming func data() -> Data {
        guard let base, count > 0 else { return Data() }  // unmapped by deinit
        let length = capacity
        let budget = holdsPlace ? self.budget : nil
        let device = self.device
        let data = Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in
            munmap(pointer, length)
            budget?.give(for: device)
        })
        // The data owns the mapping and the place now.
        self.base = nil
        holdsPlace = false
        return data
    }
}
