import CPlaneSampler

/// The inner loop of ``FrameWarper``: bilinear resampling of one plane's rows through a warp map.
enum PlaneSampler {
    /// Lanes processed together.
    typealias Lanes = SIMD8<Float>

    /// Whether this CPU runs the AVX2 interior sampler (CPlaneSampler), sixteen pixels per step.
    static let hasAVX2 = cplanesampler_has_avx2()

    /// Warps `rows` of `destination` from `source`. `scale` is the plane's subsampling (1 luma,
    /// 2 chroma): the map is in luma pixels, plane pixel `p` sits at luma `(p + 0.5) × scale - 0.5`.
    /// `vectorized` lets runs inside the frame use the AVX2 sampler (same bytes as the scalar one).
    static func warp(
        _ map: WarpMap, from source: PlaneBuffer, to destination: PlaneBuffer, rows: Range<Int>, scale: Int, fill: UInt8,
        vectorized: Bool = hasAVX2
    ) {
        // The vector sampler addresses the plane with 32-bit offsets.
        let vectorized = vectorized && source.stride > 0 && source.stride * source.height < Int(Int32.max)
        let s = Float(scale)
        let inverseScale = 1 / s
        let spacing = Float(map.spacing)
        let width = destination.width
        var columnX = [Float](repeating: 0, count: map.columns)
        var columnY = [Float](repeating: 0, count: map.columns)
        let maxX = Float(source.width - 1), maxY = Float(source.height - 1)
        // Every row is cut into the same runs (one per cell of the map), so they are found once.
        let runs = Self.runs(width: width, columns: map.columns, spacing: spacing, scale: s)
        // Map units per plane pixel along a cell: the slope of a cell's piece is (right − left) × this.
        let perPixel = s / spacing
        for row in rows {
            // The map's node row above this row, and the nodes interpolated down to it.
            let lumaY = (Float(row) + 0.5) * s - 0.5
            let gridY = max(0, lumaY / spacing)
            let nodeRow = min(map.rows - 2, Int(gridY))
            let fy = gridY - Float(nodeRow)
            for column in 0..<map.columns {
                let top = nodeRow * map.columns + column, bottom = top + map.columns
                let x0 = map.sourceX[top], x1 = map.sourceX[bottom]
                if x0 == WarpMap.invalid || x1 == WarpMap.invalid {
                    columnX[column] = WarpMap.invalid
                    continue
                }
                columnX[column] = x0 + (x1 - x0) * fy
                columnY[column] = map.sourceY[top] + (map.sourceY[bottom] - map.sourceY[top]) * fy
            }
            let output = destination.base + row * destination.stride
            for run in runs {
                let leftX = columnX[run.cell], rightX = columnX[run.cell + 1]
                if leftX == WarpMap.invalid || rightX == WarpMap.invalid {
                    (output + run.start).update(repeating: fill, count: run.end - run.start)
                    continue
                }
                // Source position (in luma pixels) = base + slope × (x − start) along this piece.
                let slopeX = (rightX - leftX) * perPixel, slopeY = (columnY[run.cell + 1] - columnY[run.cell]) * perPixel
                let baseX = leftX + run.offset * slopeX, baseY = columnY[run.cell] + run.offset * slopeY
                sampleRun(
                    source, into: output, from: run.start, to: run.end,
                    startX: (baseX + 0.5) * inverseScale - 0.5, startY: (baseY + 0.5) * inverseScale - 0.5,
                    stepX: slopeX * inverseScale, stepY: slopeY * inverseScale, maxX: maxX, maxY: maxY, fill: fill,
                    vectorized: vectorized)
            }
        }
    }

    /// One piece of a row: output pixels `start..<end` within map cell `cell`, whose first pixel
    /// lies `offset` plane pixels past the cell's left node.
    struct Run {
        var cell: Int
        var start: Int
        var end: Int
        var offset: Float
    }

    /// The runs of a row `width` plane pixels wide over a map of `columns` node columns
    /// `spacing` luma pixels apart, for a plane subsampled by `scale`.
    static func runs(width: Int, columns: Int, spacing: Float, scale s: Float) -> [Run] {
        var runs: [Run] = []
        var x = 0
        while x < width {
            let lumaX = (Float(x) + 0.5) * s - 0.5
            let cell = min(columns - 2, Int(max(0, lumaX) / spacing))
            // Pixels up to the end of this cell share one linear piece of the map.
            let cellEnd = min(width, Int(((Float(cell + 1) * spacing + 0.5) / s - 0.5).rounded(.up)))
            let end = cell == columns - 2 ? width : max(x + 1, cellEnd)
            runs.append(Run(cell: cell, start: x, end: end, offset: (lumaX - Float(cell) * spacing) / s))
            x = end
        }
        return runs
    }

    /// Samples output pixels `start..<end` of one row whose source positions advance linearly.
    @inline(__always)
    private static func sampleRun(
        _ source: PlaneBuffer, into output: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int, startX: Float, startY: Float,
        stepX: Float, stepY: Float, maxX: Float, maxY: Float, fill: UInt8, vectorized: Bool
    ) {
        // Runs wholly inside the frame (nearly all of them) take the fixed-point path.
        let lastOffset = Float(end - start - 1)
        let endX = startX + stepX * lastOffset, endY = startY + stepY * lastOffset
        if min(startX, endX) >= 0, max(startX, endX) < maxX - 0.01, min(startY, endY) >= 0, max(startY, endY) < maxY - 0.01 {
            // The vector sampler reads four bytes per row from the left tap, so its lower taps must
            // stay off the plane's last row (then the two extra bytes are the next row's).
            sampleInterior(
                source, into: output, from: start, to: end, startX: startX, startY: startY, stepX: stepX, stepY: stepY,
                vectorized: vectorized && max(startY, endY) < maxY - 1.5)
            return
        }
        let ramp = Lanes(0, 1, 2, 3, 4, 5, 6, 7)
        var x = start
        var offset: Float = 0
        while x < end {
            let positions = ramp + offset
            let sx = startX + positions * stepX, sy = startY + positions * stepY
            let inside = (sx .>= -1) .& (sx .<= maxX + 1) .& (sy .>= -1) .& (sy .<= maxY + 1)
            let cx = sx.clamped(lowerBound: Lanes(repeating: 0), upperBound: Lanes(repeating: maxX))
            let cy = sy.clamped(lowerBound: Lanes(repeating: 0), upperBound: Lanes(repeating: maxY))
            let fx0 = cx.rounded(.down), fy0 = cy.rounded(.down)
            let wx = cx - fx0, wy = cy - fy0
            var topLeft = Lanes(), topRight = Lanes(), bottomLeft = Lanes(), bottomRight = Lanes()
            let count = min(8, end - x)
            for lane in 0..<count {
                let ix = Int(fx0[lane]), iy = Int(fy0[lane])
                let nextX = ix < source.width - 1 ? 1 : 0
                let nextY = iy < source.height - 1 ? source.stride : 0
                let pointer = source.base + iy * source.stride + ix
                topLeft[lane] = Float(pointer[0])
                topRight[lane] = Float(pointer[nextX])
                bottomLeft[lane] = Float(pointer[nextY])
                bottomRight[lane] = Float(pointer[nextY + nextX])
            }
            let top = topLeft + (topRight - topLeft) * wx
            let bottom = bottomLeft + (bottomRight - bottomLeft) * wx
            let value = top + (bottom - top) * wy + 0.5
            for lane in 0..<count {
                output[x + lane] = inside[lane] ? UInt8(min(255, max(0, value[lane]))) : fill
            }
            x += 8
            offset += 8
        }
    }

    /// Bilinear sampling in 16.16 fixed point for a run whose every tap lies inside the plane:
    /// sixteen pixels at a time by the AVX2 sampler when `vectorized`, the rest by the scalar loop.
    /// Not inlined: on its own the loop keeps every value in a register (inlined into `warp`, it
    /// reloaded spilled pointers for each pixel).
    @inline(never)
    static func sampleInterior(
        _ source: PlaneBuffer, into output: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int, startX: Float, startY: Float,
        stepX: Float, stepY: Float, vectorized: Bool
    ) {
        var fx = Int32(startX * 65536), fy = Int32(startY * 65536)
        let dx = Int32(stepX * 65536), dy = Int32(stepY * 65536)
        let stride = source.stride
        var first = start
        if vectorized {
            let done = Int(cplanesampler_interior_avx2(source.base, stride, output + start, Int32(end - start), fx, fy, dx, dy))
            first += done
            fx &+= dx &* Int32(truncatingIfNeeded: done)
            fy &+= dy &* Int32(truncatingIfNeeded: done)
        }
        let base = UnsafeRawPointer(source.base)
        for x in first..<end {
            let offset = Int(fy >> 16) &* stride &+ Int(fx >> 16)
            let wx = (fx >> 8) & 0xFF, wy = (fy >> 8) & 0xFF
            // Each row's two taps in one 16-bit load (little-endian: the left tap in the low byte),
            // and each interpolation as a + (b − a) × w: three multiplies a pixel instead of six.
            let upper = Int32(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
            let lower = Int32(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset &+ stride, as: UInt16.self)))
            let topLeft = upper & 0xFF, bottomLeft = lower & 0xFF
            let top = (topLeft << 8) &+ ((upper >> 8) &- topLeft) &* wx
            let bottom = (bottomLeft << 8) &+ ((lower >> 8) &- bottomLeft) &* wx
            output[x] = UInt8(truncatingIfNeeded: ((top << 8) &+ (bottom &- top) &* wy &+ 32768) >> 16)
            fx &+= dx
            fy &+= dy
        }
    }
}
