/// An estimate of the image motion between two frames independent of the stabilizer: the
/// translation that best aligns them (block matching over the central region by the sum of
/// absolute differences, coarse on a half-size image, refined at full size with a parabola fit).
public struct GlobalMotionEstimator: Sendable {
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int

    /// An estimator for frames of `width` × `height`.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The shift (dx, dy) in pixels that moves `a`'s content onto `b`'s.
    public func shift(from a: [UInt8], to b: [UInt8]) -> SIMD2<Double> {
        let factor = width / 320
        guard factor >= 2 else { return shiftAtFullSize(from: a, to: b) }
        let (smallA, w, h) = Self.reduce(a, width, height, factor)
        let (smallB, _, _) = Self.reduce(b, width, height, factor)
        return GlobalMotionEstimator(width: w, height: h).shiftAtFullSize(from: smallA, to: smallB) * Double(factor)
    }

    /// The image averaged over `factor` × `factor` blocks.
    private static func reduce(_ image: [UInt8], _ width: Int, _ height: Int, _ factor: Int) -> ([UInt8], Int, Int) {
        let w = width / factor, h = height / factor
        var out = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var sum = 0
                for dy in 0..<factor { for dx in 0..<factor { sum += Int(image[(y * factor + dy) * width + x * factor + dx]) } }
                out[y * w + x] = UInt8(sum / (factor * factor))
            }
        }
        return (out, w, h)
    }

    private func shiftAtFullSize(from a: [UInt8], to b: [UInt8]) -> SIMD2<Double> {
        let (smallA, w2, h2) = Self.halve(a, width, height)
        let (smallB, _, _) = Self.halve(b, width, height)
        let coarse = bestShift(smallA, smallB, w2, h2, centre: SIMD2(0, 0), radius: 10, margin: 14)
        let centre = coarse &* 2
        let fine = bestShiftWithCosts(a, b, width, height, centre: centre, radius: 2, margin: 28)
        return fine
    }

    private static func halve(_ image: [UInt8], _ width: Int, _ height: Int) -> ([UInt8], Int, Int) {
        let w = width / 2, h = height / 2
        var out = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let i = 2 * y * width + 2 * x
                out[y * w + x] = UInt8((Int(image[i]) + Int(image[i + 1]) + Int(image[i + width]) + Int(image[i + width + 1])) / 4)
            }
        }
        return (out, w, h)
    }

    private func cost(_ a: [UInt8], _ b: [UInt8], _ w: Int, _ h: Int, _ dx: Int, _ dy: Int, margin: Int) -> Int {
        var total = 0
        var y = margin
        while y < h - margin {
            var x = margin
            while x < w - margin {
                total += abs(Int(a[y * w + x]) - Int(b[(y + dy) * w + x + dx]))
                x += 2
            }
            y += 2
        }
        return total
    }

    private func bestShift(_ a: [UInt8], _ b: [UInt8], _ w: Int, _ h: Int, centre: SIMD2<Int>, radius: Int, margin: Int) -> SIMD2<Int> {
        var best = (Int.max, SIMD2(0, 0))
        for dy in (centre.y - radius)...(centre.y + radius) {
            for dx in (centre.x - radius)...(centre.x + radius) {
                let c = cost(a, b, w, h, dx, dy, margin: margin)
                if c < best.0 { best = (c, SIMD2(dx, dy)) }
            }
        }
        return best.1
    }

    private func bestShiftWithCosts(_ a: [UInt8], _ b: [UInt8], _ w: Int, _ h: Int, centre: SIMD2<Int>, radius: Int, margin: Int) -> SIMD2<Double> {
        let integer = bestShift(a, b, w, h, centre: centre, radius: radius, margin: margin)
        func refine(_ minus: Int, _ zero: Int, _ plus: Int) -> Double {
            let denominator = Double(minus - 2 * zero + plus)
            return denominator > 0 ? 0.5 * Double(minus - plus) / denominator : 0
        }
        let c0 = cost(a, b, w, h, integer.x, integer.y, margin: margin)
        let fx = refine(cost(a, b, w, h, integer.x - 1, integer.y, margin: margin), c0, cost(a, b, w, h, integer.x + 1, integer.y, margin: margin))
        let fy = refine(cost(a, b, w, h, integer.x, integer.y - 1, margin: margin), c0, cost(a, b, w, h, integer.x, integer.y + 1, margin: margin))
        return SIMD2(Double(integer.x) + fx, Double(integer.y) + fy)
    }

    /// The jitter of a sequence of frame-to-frame shifts: the RMS of each shift's difference from
    /// the mean of its ±3 neighbours (steady pans cancel out, shake does not).
    public static func jitter(_ shifts: [SIMD2<Double>]) -> Double {
        guard shifts.count > 7 else { return 0 }
        var total = 0.0
        var count = 0
        for index in 3..<(shifts.count - 3) {
            var mean = SIMD2<Double>.zero
            for other in (index - 3)...(index + 3) { mean += shifts[other] }
            mean /= 7
            let d = shifts[index] - mean
            total += (d * d).sum()
            count += 1
        }
        return (total / Double(count)).squareRoot()
    }
}
