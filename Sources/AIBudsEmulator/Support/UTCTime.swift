#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// UTC calendar formatting and parsing without locale or time-zone state.
enum UTCTime {
    /// The calendar fields of `date` in UTC.
    static func fields(_ date: Date) -> tm {
        var seconds = time_t(floor(date.timeIntervalSince1970))
        var fields = tm()
        gmtime_r(&seconds, &fields)
        return fields
    }

    /// `YYYYMMDD_HHMMSS`, as device file names use.
    static func fileStamp(_ date: Date) -> String {
        let f = fields(date)
        return String(format: "%04d%02d%02d_%02d%02d%02d", Int(f.tm_year) + 1900, Int(f.tm_mon) + 1, Int(f.tm_mday),
                      Int(f.tm_hour), Int(f.tm_min), Int(f.tm_sec))
    }

    /// `YYYY-MM-DDTHH:MM:SS.ffffff`, as OS `datetime` reports it.
    static func dateTime(_ date: Date) -> String {
        let f = fields(date)
        let micros = Int((date.timeIntervalSince1970 - floor(date.timeIntervalSince1970)) * 1_000_000)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%06d", Int(f.tm_year) + 1900, Int(f.tm_mon) + 1,
                      Int(f.tm_mday), Int(f.tm_hour), Int(f.tm_min), Int(f.tm_sec), min(micros, 999_999))
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS` with optional `.f…` fraction and optional `Z` or `±HH:MM`;
    /// nil when malformed.
    static func parseDateTime(_ text: String) -> Date? {
        let scalars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= scalars.count else { return nil }
            var value = 0
            for byte in scalars[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        func byte(_ index: Int) -> UInt8? { index < scalars.count ? scalars[index] : nil }
        guard let year = number(0..<4), byte(4) == 45, let month = number(5..<7), byte(7) == 45,
            let day = number(8..<10), byte(10) == 84 || byte(10) == 116, let hour = number(11..<13), byte(13) == 58,
            let minute = number(14..<16), byte(16) == 58, let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if byte(index) == 46 {
            index += 1
            var scale = 0.1
            let start = index
            while let digit = byte(index), (48...57).contains(digit) {
                fraction += Double(digit - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start, index - start <= 9 else { return nil }
        }
        var offsetSeconds = 0
        if byte(index) == 90 || byte(index) == 122 {
            index += 1
        } else if let sign = byte(index), sign == 43 || sign == 45 {
            guard let hours = number(index + 1..<index + 3), byte(index + 3) == 58,
                let minutes = number(index + 4..<index + 6), hours < 24, minutes < 60
            else { return nil }
            offsetSeconds = (hours * 3600 + minutes * 60) * (sign == 43 ? 1 : -1)
            index += 6
        }
        guard index == scalars.count else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(second)
        let seconds = timegm(&fields)
        return Date(timeIntervalSince1970: Double(seconds - offsetSeconds) + fraction)
    }
}
