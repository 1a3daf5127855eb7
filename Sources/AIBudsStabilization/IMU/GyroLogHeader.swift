import Foundation

/// The header fields of a `.gcsv` as they are read, checked one line at a time.
struct GyroLogHeader {
    var id: String?
    var vendor: String?
    var lensProfile: String?
    var orientation: ImuAxisMapping?
    var timeScale: Double?
    var gyroScale: Double?
    var accelScale: Double?
    var frameReadoutTime: Double?
    var readoutDirection: ReadoutDirection?

    /// The scales and axis mapping the samples need.
    struct Scales {
        var time: Double
        var gyro: Double
        var accel: Double?
        var orientation: ImuAxisMapping
    }

    /// Reads one `key,value` line.
    mutating func read(_ line: Substring, line number: Int) throws(GyroLogError) {
        guard let comma = line.firstIndex(of: ",") else {
            throw GyroLogError(.badHeader, line: number, "a header line is key,value; got '\(line.prefix(80))'")
        }
        let key = line[..<comma].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: comma)...].trimmingCharacters(in: .whitespaces)
        switch key {
        case "id": id = value
        case "vendor": vendor = value
        case "lensprofile": lensProfile = value
        case "orientation":
            guard let mapping = ImuAxisMapping(letters: value) else {
                throw GyroLogError(.badHeader, line: number, "orientation must be three letters naming x, y and z once each, not '\(value.prefix(20))'")
            }
            orientation = mapping
        case "tscale": timeScale = try positive(value, key, number)
        case "gscale": gyroScale = try positive(value, key, number)
        case "ascale": accelScale = try positive(value, key, number)
        case "mscale": _ = try positive(value, key, number)
        case "frame_readout_time":
            guard let ms = GyroLogNumber.parse(value[...]), ms >= 0, ms < 1000 else {
                throw GyroLogError(.badHeader, line: number, "frame_readout_time must be milliseconds from 0 to 1000, not '\(value.prefix(20))'")
            }
            frameReadoutTime = ms / 1000
        case "frame_readout_direction":
            guard let direction = ReadoutDirection(gyroflowName: value) else {
                throw GyroLogError(.badHeader, line: number, "unknown frame_readout_direction '\(value.prefix(20))'")
            }
            readoutDirection = direction
        case "version":
            guard GyroLogNumber.parse(value[...]) != nil else {
                throw GyroLogError(.badHeader, line: number, "version must be a number, not '\(value.prefix(20))'")
            }
        default: break  // note, fwversion, timestamp, videofilename, …: not needed here.
        }
    }

    /// The checked scales; a missing required field throws.
    func scales(needsAccelerometer: Bool) throws(GyroLogError) -> Scales {
        guard let orientation else { throw GyroLogError(.missingField, line: 0, "the header has no orientation") }
        guard let timeScale else { throw GyroLogError(.missingField, line: 0, "the header has no tscale") }
        guard let gyroScale else { throw GyroLogError(.missingField, line: 0, "the header has no gscale") }
        if needsAccelerometer && accelScale == nil {
            throw GyroLogError(.missingField, line: 0, "the header has no ascale but the columns name an accelerometer")
        }
        return Scales(time: timeScale, gyro: gyroScale, accel: accelScale, orientation: orientation)
    }

    private func positive(_ value: String, _ key: String, _ line: Int) throws(GyroLogError) -> Double {
        guard let number = GyroLogNumber.parse(value[...]), number > 0 else {
            throw GyroLogError(.badHeader, line: line, "\(key) must be a positive number, not '\(value.prefix(20))'")
        }
        return number
    }
}
