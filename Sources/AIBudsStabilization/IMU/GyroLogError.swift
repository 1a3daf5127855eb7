/// Why a six-axis log (`.gcsv`) was refused, with the 1-based line where it went wrong (0 when the
/// whole file is at fault).
public struct GyroLogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of fault, so callers can tell them apart without parsing the message.
    public enum Kind: Sendable, Equatable {
        /// The first line is not `GYROFLOW IMU LOG` or `CAMERA IMU LOG`, or the file is not UTF-8 text.
        case notAGyroLog
        /// A header line is malformed or has an impossible value.
        case badHeader
        /// A required header field (`tscale`, `gscale`, `orientation`, `ascale` with accelerometer columns) is absent.
        case missingField
        /// The column line is not `t,gx,gy,gz[,ax,ay,az[,mx,my,mz]]`.
        case badColumns
        /// A sample row has the wrong number of fields or a field that is not a finite decimal number.
        case badRow
        /// Timestamps go backwards.
        case timeGoesBackwards
        /// Fewer than two samples, or more than the parser accepts.
        case sampleCount
    }

    /// What is wrong.
    public var kind: Kind
    /// The 1-based line number, 0 for the file as a whole.
    public var line: Int
    /// A sentence for people.
    public var message: String
    /// The log's file, when it was read from one.
    public var file: String?

    /// A `.gcsv` fault of `kind` at 1-based `line` (0: the file as a whole), with a sentence for
    /// people.
    public init(_ kind: Kind, line: Int, _ message: String) {
        self.kind = kind
        self.line = line
        self.message = message
    }

    /// `FILE line N: message` (`gcsv` for a log held in memory).
    public var description: String {
        let name = file ?? "gcsv"
        return line > 0 ? "\(name) line \(line): \(message)" : "\(name): \(message)"
    }
}
