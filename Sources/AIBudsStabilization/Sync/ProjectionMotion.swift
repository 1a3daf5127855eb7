/// The global image motion between two frames from their luma planes' integral projections: the
/// column sums of the central rows give the horizontal shift, the row sums of the central columns
/// the vertical one, each found by the least mean absolute difference over whole-pixel shifts and
/// refined to a fraction of a pixel by a parabola through the best three.
///
/// Cheap (one pass over half the frame, then two 1-D searches) and enough to follow the camera's
/// rotation frame to frame, which is all the gyro–video time search needs.
struct ProjectionMotion: Sendable {
    /// The column-sum and row-sum profiles of one frame, each divided by its length.
    struct Profiles: Sendable {
        var columns: [Double]
        var rows: [Double]
    }

    /// The largest shift searched, as a fraction of the frame's width or height.
    var searchFraction = 0.12

    /// The profiles of a luma plane (only its central half in the other direction is summed, where
    /// the lens distorts least).
    static func profiles(_ plane: PlaneBuffer) -> Profiles {
        let width = plane.width, height = plane.height
        var columns = [Double](repeating: 0, count: width)
        var rows = [Double](repeating: 0, count: height)
        let rowBand = (height / 4)..<max(height / 4 + 1, height * 3 / 4)
        let columnBand = (width / 4)..<max(width / 4 + 1, width * 3 / 4)
        columns.withUnsafeMutableBufferPointer { columns in
            for y in rowBand {
                let line = plane.base + y * plane.stride
                for x in 0..<width { columns[x] += Double(line[x]) }
            }
        }
        for y in 0..<height {
            let line = plane.base + y * plane.stride
            var sum = 0
            for x in columnBand { sum += Int(line[x]) }
            rows[y] = Double(sum)
        }
        let columnScale = 1 / Double(rowBand.count), rowScale = 1 / Double(columnBand.count)
        return Profiles(columns: columns.map { $0 * columnScale }, rows: rows.map { $0 * rowScale })
    }

    /// The image motion from `first` to `second` in pixels (content moving right and down is positive).
    func shift(from first: Profiles, to second: Profiles) -> SIMD2<Double> {
        SIMD2(Self.shift(first.columns, second.columns, limit: Int(Double(first.columns.count) * searchFraction)),
              Self.shift(first.rows, second.rows, limit: Int(Double(first.rows.count) * searchFraction)))
    }

    /// The shift `s` minimising the mean |a[i] − b[i + s]| over the overlap, to a fraction of a sample.
    static func shift(_ a: [Double], _ b: [Double], limit: Int) -> Double {
        let count = min(a.count, b.count)
        let limit = max(1, min(limit, count / 3))
        var costs = [Double](repeating: .infinity, count: 2 * limit + 1)
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for s in -limit...limit {
                    let start = max(0, -s), end = min(count, count - s)
                    guard end > start else { continue }
                    var total = 0.0
                    for i in start..<end { total += abs(a[i] - b[i + s]) }
                    costs[s + limit] = total / Double(end - start)
                }
            }
        }
        var best = 0
        for index in costs.indices where costs[index] < costs[best] { best = index }
        var offset = 0.0
        if best > 0, best < costs.count - 1 {
            let left = costs[best - 1], middle = costs[best], right = costs[best + 1]
            let curvature = left - 2 * middle + right
            if curvature > 0 { offset = max(-0.5, min(0.5, 0.5 * (left - right) / curvature)) }
        }
        return Double(best - limit) + offset
    }
}
