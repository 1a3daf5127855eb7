import AIBudsFiles
import Foundation

/// Reads Gyroflow's `.gcsv` six-axis log strictly: every malformed piece is a ``GyroLogError``
/// naming its line, never a crash or a silently skipped row.
///
/// Format: a first line `GYROFLOW IMU LOG` or `CAMERA IMU LOG`; `key,value` header lines
/// (`version`, `id`, `orientation`, `tscale`, `gscale`, `ascale`, `mscale`, `vendor`,
/// `lensprofile`, `frame_readout_time` in ms, `frame_readout_direction`; others are ignored); the
/// column line `t,gx,gy,gz[,ax,ay,az[,mx,my,mz]]`; then one row of integers or decimals per sample.
/// `t × tscale` is seconds from the first frame's presentation time; `g × gscale` is rad/s;
/// `a × ascale` is g. The magnetometer is read and dropped.
///
/// Memory is bounded: the file is read once into memory (at most ``maximumBytes``) and lines are
/// taken from its bytes one at a time, so what the parser holds beyond the file is the samples
/// (at most ``maximumSamples``, about 100 bytes each): about 330 MB at the limits.
public enum GyroLogParser {
    /// The largest log accepted (128 MiB: a 1 kHz six-axis log of about nine hours).
    public static let maximumBytes = 128 << 20
    /// The most samples accepted (a 1 kHz log of 55 minutes, a 200 Hz log of 4.6 hours).
    public static let maximumSamples = 2_000_000

    /// Parses the file at `url`; errors name it.
    ///
    /// - Throws: ``GyroLogError`` (with ``GyroLogError/file`` set) for a malformed log, a path that
    ///   is not a regular file (a device such as `/dev/zero`, a folder), or one over ``maximumBytes``.
    public static func parse(contentsOf url: URL) throws(GyroLogError) -> GyroLog {
        do throws(GyroLogError) {
            let data: Data
            do { data = try InputFile.read(url, limit: maximumBytes) } catch {
                switch error.kind {
                case .tooLarge: throw GyroLogError(.sampleCount, line: 0, "the log is larger than \(maximumBytes) bytes")
                case .notARegularFile: throw GyroLogError(.notAGyroLog, line: 0, "is not a regular file (a device, a folder or a FIFO)")
                case .unreadable: throw GyroLogError(.notAGyroLog, line: 0, "cannot be read (\(error.reason))")
                }
            }
            return try parse(data)
        } catch {
            var named = error
            named.file = url.path
            throw named
        }
    }

    /// Parses a log held in memory.
    public static func parse(_ data: Data) throws(GyroLogError) -> GyroLog {
        guard data.count <= maximumBytes else {
            throw GyroLogError(.sampleCount, line: 0, "the log is larger than \(maximumBytes) bytes")
        }
        var lines = LineReader(data).enumerated().makeIterator()
        guard let first = lines.next(), ["GYROFLOW IMU LOG", "CAMERA IMU LOG"].contains(clean(first.element)) else {
            throw GyroLogError(.notAGyroLog, line: 1, "the first line must be GYROFLOW IMU LOG or CAMERA IMU LOG")
        }
        var header = GyroLogHeader()
        var columns: Int?
        while let (index, raw) = lines.next() {
            let line = clean(raw)
            if line.isEmpty { continue }
            if line.hasPrefix("t,") || line == "t" {
                columns = try columnCount(line, line: index + 1)
                break
            }
            try header.read(line, line: index + 1)
        }
        guard let columns else { throw GyroLogError(.badColumns, line: 0, "no column line (t,gx,gy,gz,…)") }
        let scales = try header.scales(needsAccelerometer: columns >= 7)
        let mapping = scales.orientation

        var samples: [ImuSample] = []
        var fields = [Double](repeating: 0, count: columns)
        while let (index, raw) = lines.next() {
            let line = clean(raw)
            if line.isEmpty { continue }
            try readRow(line, into: &fields, line: index + 1)
            let time = fields[0] * scales.time
            guard time.isFinite else { throw GyroLogError(.badRow, line: index + 1, "the time overflows") }
            if let last = samples.last {
                if time < last.time {
                    throw GyroLogError(.timeGoesBackwards, line: index + 1, "time \(fields[0]) is before the previous sample's")
                }
                if time == last.time { continue }
            }
            guard samples.count < maximumSamples else {
                throw GyroLogError(.sampleCount, line: index + 1, "more than \(maximumSamples) samples")
            }
            let gyro = mapping.apply(SIMD3(fields[1], fields[2], fields[3]) * scales.gyro)
            var accel: SIMD3<Double>?
            if columns >= 7, let accelScale = scales.accel {
                accel = ImuAxisMapping.cameraFrame(fromLogFrame: mapping.apply(SIMD3(fields[4], fields[5], fields[6]) * accelScale))
            }
            // A finite value times a finite scale may still overflow: a rate of infinity would
            // turn every later orientation into NaN.
            guard (0..<3).allSatisfy({ gyro[$0].isFinite && (accel?[$0].isFinite ?? true) }) else {
                throw GyroLogError(.badRow, line: index + 1, "a value times its scale overflows")
            }
            samples.append(ImuSample(time: time, gyro: ImuAxisMapping.cameraFrame(fromLogFrame: gyro), accel: accel))
        }
        guard samples.count >= 2 else { throw GyroLogError(.sampleCount, line: 0, "the log has fewer than two samples") }
        return GyroLog(
            samples: samples, id: header.id, vendor: header.vendor, lensProfileName: header.lensProfile,
            frameReadoutTime: header.frameReadoutTime, readoutDirection: header.readoutDirection)
    }

    /// The lines of `data` one at a time (split at `\n`, `\r\n` or `\r`), each decoded as it is
    /// reached: no copy of the whole text and no array of all its lines.
    struct LineReader: Sequence, IteratorProtocol {
        private let data: Data
        private var position: Data.Index
        private var done = false

        init(_ data: Data) {
            self.data = data
            position = data.startIndex
        }

        mutating func next() -> Substring? {
            guard !done else { return nil }
            let end = data[position...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? data.endIndex
            let line = String(decoding: data[position..<end], as: UTF8.self)[...]
            if end == data.endIndex {
                done = true
            } else {
                // \r\n is one break.
                position = data.index(after: end)
                if data[end] == 0x0D, position < data.endIndex, data[position] == 0x0A { position = data.index(after: position) }
            }
            return line
        }
    }

    /// The line without a carriage return, surrounding blanks or a byte-order mark.
    private static func clean(_ line: Substring) -> Substring {
        var line = line
        if line.first == "\u{FEFF}" { line = line.dropFirst() }
        return line.trimmingCharacters(in: .whitespacesAndNewlines)[...]
    }

    /// 4, 7 or 10 for the accepted column lines.
    private static func columnCount(_ line: Substring, line number: Int) throws(GyroLogError) -> Int {
        let names = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let full = ["t", "gx", "gy", "gz", "ax", "ay", "az", "mx", "my", "mz"]
        guard [4, 7, 10].contains(names.count), names == Array(full.prefix(names.count)) else {
            throw GyroLogError(.badColumns, line: number, "columns must be t,gx,gy,gz[,ax,ay,az[,mx,my,mz]], not '\(line.prefix(80))'")
        }
        return names.count
    }

    /// Reads one row of exactly `fields.count` finite decimal numbers.
    private static func readRow(_ line: Substring, into fields: inout [Double], line number: Int) throws(GyroLogError) {
        var count = 0
        for part in line.split(separator: ",", omittingEmptySubsequences: false) {
            guard count < fields.count else {
                throw GyroLogError(.badRow, line: number, "more than \(fields.count) fields")
            }
            guard let value = GyroLogNumber.parse(part) else {
                throw GyroLogError(.badRow, line: number, "'\(part.prefix(40))' is not a decimal number")
            }
            fields[count] = value
            count += 1
        }
        guard count == fields.count else {
            throw GyroLogError(.badRow, line: number, "\(count) fields where the columns name \(fields.count)")
        }
    }
}
