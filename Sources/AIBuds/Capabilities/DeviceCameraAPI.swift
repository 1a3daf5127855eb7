import AIBudsFoundation
import Foundation

/// Photo and video capture on the device.
public protocol DeviceCameraAPI: DeviceAPI {
    /// The longest video the device records, in seconds, when known.
    var maxVideoRecordDuration: NSNumber? { get }
    /// The camera module's firmware version, when known.
    var cameraFirmwareVersion: String? { get }

    /// Sets the longest video, in seconds; returns the device's status code.
    func setMaxVideoRecordDuration(_ seconds: NSNumber) async throws -> NSNumber?
    /// Reads the longest video, updating ``maxVideoRecordDuration``.
    func requestQueryMaxVideoRecordDuration() async throws -> NSNumber
    /// Takes a photo; returns the device file name of the new photo.
    func requestPhotoTaking(withCaptureMode mode: PhotoCaptureMode) async throws -> String
    /// Stops a running photo capture (a burst); returns the device's status code.
    func requestStopPhotoTaking() async throws -> NSNumber?
    /// Starts recording video; returns the device's status code.
    func requestVideoRecording() async throws -> NSNumber?
    /// Stops recording video; returns the device file name of the new video.
    func requestStopVideoRecording() async throws -> String
}

extension DeviceCameraAPI {
    /// Sets the longest video, in seconds.
    public func setMaxVideoRecordDuration(_ seconds: NSNumber, completion: AIBudsStatusCodeCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.setMaxVideoRecordDuration(seconds) }
    }

    /// Has the device's camera capture in `mode` (one photo or a burst); `completion` gets status
    /// code 0 once the device has taken it.
    public func requestPhotoTaking(withCaptureMode mode: PhotoCaptureMode, completion: AIBudsStatusCodeCompletionHandler?) {
        AIBudsCall.run(completion) {
            _ = try await self.requestPhotoTaking(withCaptureMode: mode)
            return NSNumber(value: 0)
        }
    }

    /// Stops a running photo capture.
    public func requestStopPhotoTaking(_ completion: AIBudsStatusCodeCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.requestStopPhotoTaking() }
    }

    /// Starts recording video.
    public func requestVideoRecording(_ completion: AIBudsStatusCodeCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.requestVideoRecording() }
    }

    /// Stops recording video; the device stores the new video as a media file.
    public func requestStopVideoRecording(_ completion: AIBudsStatusCodeCompletionHandler?) {
        AIBudsCall.run(completion) {
            _ = try await self.requestStopVideoRecording()
            return NSNumber(value: 0)
        }
    }
}
