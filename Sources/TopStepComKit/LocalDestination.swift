import AIBudsDigest
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a download lands on the host: a safe local name for the device file name, a resumable
/// partial file, and a final path that never replaces an existing file.
struct LocalDestination: Sendable {
    /// The destination folder.
    let folder: URL
    /// The local file name derived from the device file name.
    let fileName: String

    /// The name of the hidden folder, inside the destination folder, that holds partial files.
    static let partialFolderName = ".tspartial"
    /// The longest local file name in UTF-8 bytes (Linux's NAME_MAX).
    static let maximumNameLength = 255

    /// Prepares the destination for `deviceName`; creates the folder when it is missing.
    init(folderPath: String, deviceName: String) throws(TSError) {
        guard !folderPath.isEmpty else { throw TSError(.invalidParameter, "the local folder path is empty") }
        folder = URL(fileURLWithPath: folderPath, isDirectory: true).standardizedFileURL
        fileName = Self.safeName(deviceName)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw TSError(.invalidParameter, "cannot create the folder \(folder.path)", underlying: error)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TSError(.invalidParameter, "\(folder.path) is not a folder")
        }
    }

    /// The partial file of one device file (named by a digest of the device, id and name, so a
    /// later download of the same file resumes it and a different file never does).
    func partialURL(device: String, id: String, name: String) -> URL {
        let key = SHA256.hash(Data("\(device)\u{0}\(id)\u{0}\(name)".utf8)).hexString
        return folder.appendingPathComponent(Self.partialFolderName, isDirectory: true)
            .appendingPathComponent(key + ".part")
    }

    /// Moves the verified partial file to the first free name (`name`, `name (1).ext`, …) and
    /// returns its path; an existing file is never replaced.
    func place(_ partial: URL) throws(TSError) -> URL {
        let (base, ext) = Self.split(fileName)
        for attempt in 0..<10_000 {
            let candidate = attempt == 0 ? fileName : Self.fit("\(base) (\(attempt))", ext)
            let target = folder.appendingPathComponent(candidate)
            // link(2) fails with EEXIST instead of replacing: an atomic "move if free".
            if link(partial.path, target.path) == 0 {
                unlink(partial.path)
                rmdir(partial.deletingLastPathComponent().path)  // the partial folder, when now empty
                return target
            }
            let code = errno
            if code == EEXIST { continue }
            if code == ENOSPC { throw TSError(.noSpace, "no space left for \(target.path)") }
            throw TSError(.dataSetFailed, "cannot place the download at \(target.path): \(String(cString: strerror(code)))")
        }
        throw TSError(.dataSetFailed, "no free name for \(fileName) in \(folder.path)")
    }

    /// A single safe path component for a device file name: no `/`, NUL or control characters,
    /// not `.` or `..`, at most 255 UTF-8 bytes with the extension kept.
    static func safeName(_ deviceName: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in deviceName.unicodeScalars {
            let unsafe = scalar == "/" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F
            scalars.append(unsafe ? "_" : scalar)
        }
        var name = String(scalars)
        if name.isEmpty || name == "." || name == ".." { name = "recording" + name.replacingOccurrences(of: ".", with: "_") }
        if name.hasPrefix(".") { name = "_" + name.dropFirst() }
        let (base, ext) = split(name)
        return fit(base, ext)
    }

    /// Splits a name into its base and extension (with the dot); a short final extension only.
    static func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        let ext = String(name[dot...])
        guard ext.utf8.count <= 16 else { return (name, "") }
        return (String(name[..<dot]), ext)
    }

    /// Joins base and extension, shortening the base so the whole fits `maximumNameLength` bytes.
    static func fit(_ base: String, _ ext: String) -> String {
        var base = base
        while base.utf8.count + ext.utf8.count > maximumNameLength, !base.isEmpty { base.removeLast() }
        return base + ext
    }
}
