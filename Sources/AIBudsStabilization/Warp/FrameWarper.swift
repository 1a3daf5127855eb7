import Dispatch
import Foundation

/// Resamples a YUV 4:2:0 frame through a ``WarpMap``: bilinear, on every core (bands of rows run
/// concurrently); runs inside the frame in 16.16 fixed point, sixteen pixels per step with AVX2
/// where the CPU has it, edges eight pixels at a time with SIMD arithmetic.
/// Output pixels whose source lies more than a pixel outside the frame become black.
public struct FrameWarper: Sendable {
    /// How many bands of rows run at once.
    public let concurrency: Int

    /// Whether runs inside the frame use the AVX2 sampler (the same bytes as the scalar one).
    let vectorized: Bool

    /// Creates a warper using `concurrency` threads (default: every active core).
    public init(concurrency: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.init(concurrency: concurrency, vectorized: PlaneSampler.hasAVX2)
    }

    /// A warper that uses the AVX2 sampler only when `vectorized` (and the CPU has it): for tests.
    init(concurrency: Int, vectorized: Bool) {
        self.concurrency = max(1, concurrency)
        self.vectorized = vectorized && PlaneSampler.hasAVX2
    }

    /// Warps the three planes of `source` into `destination` (same sizes; chroma at half size).
    public func warp(_ map: WarpMap, source: [PlaneBuffer], destination: [PlaneBuffer]) {
        precondition(source.count == 3 && destination.count == 3, "a YUV 4:2:0 frame has three planes")
        let lumaHeight = destination[0].height
        let bands = min(lumaHeight / 2, concurrency * 4)
        let rowsPerBand = ((lumaHeight + bands - 1) / bands + 1) & ~1
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let first = band * rowsPerBand
            let last = min(lumaHeight, first + rowsPerBand)
            guard first < last else { return }
            PlaneSampler.warp(map, from: source[0], to: destination[0], rows: first..<last, scale: 1, fill: 16, vectorized: vectorized)
            for plane in 1...2 {
                let chromaRows = (first / 2)..<min(destination[plane].height, (last + 1) / 2)
                PlaneSampler.warp(map, from: source[plane], to: destination[plane], rows: chromaRows, scale: 2, fill: 128, vectorized: vectorized)
            }
        }
    }
}
