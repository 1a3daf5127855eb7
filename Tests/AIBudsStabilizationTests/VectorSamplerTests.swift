@testable import AIBudsStabilization
import AIBudsEmulator
import Glibc
import Testing

/// The AVX2 interior sampler (CPlaneSampler) against the scalar Swift loop it replaces: the same
/// bytes for random runs on random planes, edges included, and no byte read outside the plane
/// (each source plane ends right before an inaccessible page, so a read past it crashes the test).
@Suite(.enabled(if: PlaneSampler.hasAVX2, "the vector sampler needs a CPU with AVX2"))
struct VectorSamplerTests {
    /// A plane of random bytes whose last byte is the last before a page that cannot be read.
    final class GuardedPlane {
        let region: UnsafeMutableRawPointer
        let regionSize: Int
        let plane: PlaneBuffer

        init(width: Int, height: Int, stride: Int, using generator: inout SeededRandom) throws {
            let page = sysconf(Int32(_SC_PAGESIZE))
            let bytes = stride * (height - 1) + width
            let dataSize = (bytes + page - 1) / page * page
            regionSize = dataSize + page
            guard let region = mmap(nil, regionSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                region != UnsafeMutableRawPointer(bitPattern: -1)
            else { throw PlaneError.mmap(errno) }
            self.region = region
            guard mprotect(region + dataSize, page, PROT_NONE) == 0 else { throw PlaneError.mprotect(errno) }
            let base = (region + dataSize - bytes).assumingMemoryBound(to: UInt8.self)
            for index in 0..<bytes { base[index] = UInt8.random(in: 0...255, using: &generator) }
            plane = PlaneBuffer(base: base, stride: stride, width: width, height: height)
        }

        deinit { munmap(region, regionSize) }

        enum PlaneError: Error { case mmap(Int32), mprotect(Int32) }
    }

    /// Runs whose every tap lies inside the plane and whose lower taps stay off the last row (the
    /// sampler's preconditions, as `PlaneSampler.sampleRun` checks them), with random positions,
    /// directions, lengths (tails of 1–15 pixels included) and output offsets; a sixth of the ends
    /// pushed to the extremes of that region.
    @Test(arguments: [(67, 41, 67), (64, 33, 80), (2, 4, 2), (3, 5, 16), (960, 540, 960), (1920, 6, 1920)])
    func interiorRunsMatchTheScalarLoop(width: Int, height: Int, stride: Int) throws {
        var generator = SeededRandom(seed: UInt64(width * 1_000_003 + height * 1009 + stride))
        let source = try GuardedPlane(width: width, height: height, stride: stride, using: &generator)
        let maxX = Float(width - 1), maxY = Float(height - 1)
        let highX = maxX - 0.02, highY = maxY - 1.51
        func coordinate(_ high: Float) -> Float {
            switch Int.random(in: 0..<12, using: &generator) {
            case 0: 0
            case 1: high
            default: Float.random(in: 0...high, using: &generator)
            }
        }
        // The corners and edges of that region first (the right end of the lowest allowed row is
        // where a four-byte read comes closest to the plane's end), then random runs.
        let edges: [(Float, Float, Float, Float, Int)] = [
            (0, highY, highX, highY, 200), (highX, highY, max(0, highX - 15), highY, 16), (max(0, highX - 31), highY, highX, highY, 32),
            (highX, 0, highX, highY, 16), (0, 0, highX, highY, 48), (highX, highY, 0, 0, 17), (0, highY, 0, 0, 16),
        ]
        var runs = edges
        for _ in 0..<3000 {
            let count = Int.random(in: 0..<10, using: &generator) == 0 ? Int.random(in: 1...200, using: &generator)
                : Int.random(in: 1...48, using: &generator)
            runs.append((coordinate(highX), coordinate(highY), coordinate(highX), coordinate(highY), count))
        }
        var vector = [UInt8](repeating: 0, count: 300), scalar = vector
        var compared = 0, vectorized = 0
        for (index, (startX, startY, endX, endY, count)) in runs.enumerated() {
            let start = Int.random(in: 0...40, using: &generator)
            let steps = Float(max(1, count - 1))
            let stepX = (endX - startX) / steps, stepY = (endY - startY) / steps
            let lastX = startX + stepX * Float(count - 1), lastY = startY + stepY * Float(count - 1)
            // The same test as sampleRun's, with the vector sampler's one row of margin.
            guard min(startX, lastX) >= 0, max(startX, lastX) < maxX - 0.01, min(startY, lastY) >= 0, max(startY, lastY) < maxY - 1.5
            else {
                #expect(index >= edges.count, "edge run \(index) left the region")
                continue
            }
            vector.withUnsafeMutableBufferPointer { vector in
                scalar.withUnsafeMutableBufferPointer { scalar in
                    vector.update(repeating: 0xA5)
                    scalar.update(repeating: 0xA5)
                    for (buffer, useVector) in [(vector, true), (scalar, false)] {
                        PlaneSampler.sampleInterior(
                            source.plane, into: buffer.baseAddress!, from: start, to: start + count, startX: startX, startY: startY,
                            stepX: stepX, stepY: stepY, vectorized: useVector)
                    }
                }
            }
            let mismatch = vector.indices.first { vector[$0] != scalar[$0] }
            #expect(mismatch == nil, "run \(index) of \(count) from (\(startX), \(startY)) step (\(stepX), \(stepY))")
            #expect(vector[..<start].allSatisfy { $0 == 0xA5 } && vector[(start + count)...].allSatisfy { $0 == 0xA5 }, "wrote outside run \(index)")
            compared += 1
            if count >= 16 { vectorized += 1 }
        }
        #expect(compared > 1000)
        #expect(vectorized > 300)
    }

    /// Whole frames through ``FrameWarper`` (the runs, the edge path and the choice between the
    /// samplers as the stabilizer makes it): identity, a zoomed-in rolling-shutter correction
    /// through the glasses' fisheye, and a zoom-out whose borders leave the frame, at 640×360 with
    /// chroma at half size, byte for byte.
    @Test func framesWarpTheSameWithEitherSampler() throws {
        var generator = SeededRandom(seed: 42)
        let width = 640, height = 360
        let source = try [
            GuardedPlane(width: width, height: height, stride: width, using: &generator),
            GuardedPlane(width: width / 2, height: height / 2, stride: width / 2, using: &generator),
            GuardedPlane(width: width / 2, height: height / 2, stride: width / 2 + 32, using: &generator),
        ]
        let lens = LensProfile.aibudsGlasses.lens(width: width, height: height)
        let raw = OrientationTrack(times: [0, 1], orientations: [.identity, Quaternion(rotationVector: SIMD3(0.03, -0.05, 0.08))])
        func correction(zoom: Double) -> FrameCorrection {
            FrameCorrection(
                lens: lens, width: width, height: height, zoom: zoom, time: 0.5, raw: raw, virtual: .identity, readoutTime: 0.03,
                direction: .topToBottom)
        }
        let maps = [
            WarpMap(identityWidth: width, height: height), WarpMap(correction(zoom: 1.15), width: width, height: height),
            WarpMap(correction(zoom: 0.85), width: width, height: height),
        ]
        let sizes = [(width, height), (width / 2, height / 2), (width / 2, height / 2)]
        for map in maps {
            var outputs: [[[UInt8]]] = []
            for vectorized in [true, false] {
                var planes = sizes.map { [UInt8](repeating: 0, count: $0.0 * $0.1) }
                let pointers = planes.indices.map { index in
                    UnsafeMutablePointer<UInt8>.allocate(capacity: planes[index].count)
                }
                defer { pointers.forEach { $0.deallocate() } }
                let destination = sizes.indices.map {
                    PlaneBuffer(base: pointers[$0], stride: sizes[$0].0, width: sizes[$0].0, height: sizes[$0].1)
                }
                FrameWarper(concurrency: 2, vectorized: vectorized).warp(map, source: source.map(\.plane), destination: destination)
                for index in planes.indices {
                    planes[index] = Array(UnsafeBufferPointer(start: pointers[index], count: planes[index].count))
                }
                outputs.append(planes)
            }
            for plane in 0..<3 {
                let mismatch = outputs[0][plane].indices.first { outputs[0][plane][$0] != outputs[1][plane][$0] }
                #expect(mismatch == nil, "plane \(plane): first different byte at \(mismatch ?? -1)")
            }
        }
    }
}
