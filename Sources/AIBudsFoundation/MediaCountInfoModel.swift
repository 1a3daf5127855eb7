import Foundation

/// How many media files of each kind the device holds.
public final class MediaCountInfoModel: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Number of photos.
    public let photoCount: NSNumber
    /// Number of videos.
    public let videoCount: NSNumber
    /// Number of audio recordings.
    public let audioCount: NSNumber

    /// Creates the model from the photo, video and audio file counts the device reported.
    public init(photoCount: Int, videoCount: Int, audioCount: Int) {
        self.photoCount = NSNumber(value: photoCount)
        self.videoCount = NSNumber(value: videoCount)
        self.audioCount = NSNumber(value: audioCount)
    }

    private enum CodingKeys: String, CodingKey { case photoCount, videoCount, audioCount }

    /// Decodes the three counts.
    public convenience init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            photoCount: try c.decode(Int.self, forKey: .photoCount),
            videoCount: try c.decode(Int.self, forKey: .videoCount),
            audioCount: try c.decode(Int.self, forKey: .audioCount))
    }

    /// Encodes the three counts as integers.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(photoCount.intValue, forKey: .photoCount)
        try c.encode(videoCount.intValue, forKey: .videoCount)
        try c.encode(audioCount.intValue, forKey: .audioCount)
    }

    /// Models are equal when their counts are.
    public static func == (lhs: MediaCountInfoModel, rhs: MediaCountInfoModel) -> Bool {
        lhs.photoCount == rhs.photoCount && lhs.videoCount == rhs.videoCount && lhs.audioCount == rhs.audioCount
    }

    /// `photos N, videos N, audios N`.
    public var description: String { "photos \(photoCount), videos \(videoCount), audios \(audioCount)" }
}
