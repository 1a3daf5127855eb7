/// The inner loop of ``FrameWarper``: bilinear resampling of one plane's rows through a warp map.
enum PlaneSampler {
    /// Lanes processed together.
    typealias Lanes = SIMD8<Float>

    /// Warps `rows` of `destination` from `source`. `scale` is the plane's subsampling (1 luma,
    /// 2 chroma): the map is in luma pixels, plane pixel `p` sits at luma `(p + 0.5) × scale - 0.5`.
    static func warp(_ map: WarpMap, from source: PlaneBuffer, to destination: PlaneBuffer, rows: Range<Int>, scale: Int, fill: UInt8) {
        let s = Float(scale)
        let spacing = Float(map.spacing)
        let width = destination.width
        var columnX = [Float](repeating: 0, count: map.columns)
        var columnY = [Float](repeating: 0, count: map.columns)
        let maxX = Float(source.width - 1), maxY = Float(source.height - 1)
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
            var x = 0
            while x < width {
                let lumaX = (Float(x) + 0.5) * s - 0.5
                let cell = min(map.columns - 2, Int(max(0, lumaX) / spacing))
                // Pixels up to the end of this cell share one linear piece of the map.
                let cellEnd = min(width, Int(((Float(cell + 1) * spacing + 0.5) / s - 0.5).rounded(.up)))
                let end = cell == map.columns - 2 ? width : max(x + 1, cellEnd)
                let leftX = columnX[cell], rightX = columnX[cell + 1]
                if leftX == WarpMap.invalid || rightX == WarpMap.invalid {
                    (output + x).update(repeating: fill, count: end - x)
                    x = end
                    continue
                }
                // Source position (in plane pixels) = a + b × x along this piece.
                let slopeX = (rightX - leftX) / spacing * s, slopeY = (columnY[cell + 1] - columnY[cell]) / spacing * s
                let startLuma = Float(cell) * spacing
                let baseX = leftX + (lumaX - startLuma) / s * slopeX, baseY = columnY[cell] + (lumaX - startLuma) / s * slopeY
                sampleRun(
                    source, into: output, from: x, to: end, startX: (baseX + 0.5) / s - 0.5, startY: (baseY + 0.5) / s - 0.5,
                    stepX: slopeX / s, stepY: slopeY / s, maxX: maxX, maxY: maxY, fill: fill)
                x = end
            }
        }
    }

    /// Samples output pixels `start..<end` of one row whose source positions advance linearly.
    @inline(__always)
    private static func sampleRun(
        _ source: PlaneBuffer, into output: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int, startX: Float, startY: Float,
        stepX: Float, stepY: Float, maxX: Float, maxY: Float, fill: UInt8
    ) {
        // Runs wholly inside the frame (nearly all of them) take the fixed-point path.
        let lastOffset = Float(end - start - 1)
        let endX = startX + stepX * lastOffset, endY = startY + stepY * lastOffset
        if min(startX, endX) >= 0, max(startX, endX) < maxX - 0.01, min(startY, endY) >= 0, max(startY, endY) < maxY - 0.01 {
            sampleInterior(source, into: output, from: start, to: end, startX: startX, startY: startY, stepX: stepX, stepY: stepY)
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

    /// Bilinear sampling in 16.16 fixed point for a run whose every tap lies inside the plane.
    @inline(__always)
    private static func sampleInterior(
        _ source: PlaneBuffer, into output: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int, startX: Float, startY: Float,
        stepX: Float, stepY: Float
    ) {
        var fx = Int32(startX * 65536), fy = Int32(startY * 65536)
        let dx = Int32(stepX * 65536), dy = Int32(stepY * 65536)
        let stride = source.stride
        for x in start..<end {
            let pointer = source.base + Int(fy >> 16) * stride + Int(fx >> 16)
            let wx = (fx >> 8) & 0xFF, wy = (fy >> 8) & 0xFF
            let top = Int32(pointer[0]) &* (256 &- wx) &+ Int32(pointer[1]) &* wx
            let bottom = Int32(pointer[stride]) &* (256 &- wx) &+ Int32(pointer[stride + 1]) &* wx
            output[x] = UInt8(truncatingIfNeeded: (top &* (256 &- wy) &+ bottom &* wy &+ 32768) >> 16)
            fx &+= dx
            fy &+= dy
        }
    }
}
