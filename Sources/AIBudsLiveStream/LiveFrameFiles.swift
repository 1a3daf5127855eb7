import Foundation

/// Writes a puller's decoded frames to a folder as JPEG files, `frame-000000.jpg` on, every
/// `every`-th frame, up to `limit` files; written on the puller's thread (a JPEG is a few ms).
public final class LiveFrameFiles: @unchecked Sendable {
    /// The folder the files go to.
    public let folder: URL
    // Used only on the puller's thread.
    private let encoder = LiveJPEGEncoder()
    private var seen = 0
    private var written = 0
    private let every: Int
    private let limit: Int

    /// Writes every `every`-th frame of `puller` to `folder` (created), at most `limit` files;
    /// throws a `CocoaError` when the folder cannot be created.
    public init(from puller: any LiveStreamSource, to folder: URL, every: Int = 1, limit: Int = .max) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.folder = folder
        self.every = max(1, every)
        self.limit = limit
        puller.onFrame { [weak self] frame in self?.take(frame) }
    }

    private func take(_ frame: LiveFrame) {
        defer { seen += 1 }
        guard seen % every == 0, written < limit, let bytes = try? encoder.encode(frame) else { return }
        let name = String(format: "frame-%06d.jpg", written)
        if (try? Data(bytes).write(to: folder.appendingPathComponent(name), options: .atomic)) != nil { written += 1 }
    }
}
