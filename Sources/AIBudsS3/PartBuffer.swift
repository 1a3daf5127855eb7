import Foundation

/// The bytes of one part while it fills and until it is sent, in memory mapped for parts
/// (``PartBudget/mapping()``), taken at its first byte and handed back once it is sent.
///
/// A part holds one of the station's places (``PartBudget``, shared fairly between devices)
/// from its first byte until it is sent, so the parts in memory over every device stay bounded: a
/// download that would start one more waits (its device keeps sending its other files). Measured with the eight-device
/// benchmark (docs/benchmarks.md): 8 MiB parts from the heap stayed in glibc's per-thread arenas
/// once freed, and without a budget each of the 42 transfers held two parts: 873 MiB.
struct PartBuffer: ~Copyable {
    private var base: UnsafeMutableRawPointer?
    private let budget: PartBudget
    /// The device whose place it takes.
    private let device: String
    private var holdsPlace = false
    /// Bytes in the part.
    private(set) var count = 0

    /// An empty part of up to the budget's `partSize` bytes, taking a place of `device` in
    /// `budget` at its first byte.
    init(budget: PartBudget, device: String) {
        self.budget = budget
        self.device = device
    }

    deinit {
        if let base { budget.recycle(base) }
        if holdsPlace { budget.give(for: device) }
    }

    /// Room left.
    var room: Int { budget.partSize - count }

    /// Appends `bytes` (at most `room`).
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        precondition(bytes.count <= room, "a part takes no more than its capacity")
        if !holdsPlace {
            budget.take(for: device)
            holdsPlace = true
        }
        if base == nil {
            base = budget.mapping()
            guard base != nil else { throw S3Error(.configuration, "no memory for a part of \(budget.partSize) bytes") }
        }
        (base.unsafelyUnwrapped + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// The part's bytes as `Data` that owns the memory and the place (both handed back when the
    /// last copy goes).
    consuming func data() -> Data {
        guard let base, count > 0 else { return Data() }  // handed back by deinit
        let budget = self.budget
        let holdsPlace = self.holdsPlace
        let device = self.device
        let data = Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in
            budget.recycle(pointer)
            if holdsPlace { budget.give(for: device) }
        })
        // The data owns the memory and the place now.
        self.base = nil
        self.holdsPlace = false
        return data
    }
}
