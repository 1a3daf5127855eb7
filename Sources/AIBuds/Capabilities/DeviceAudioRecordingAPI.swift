import AIBudsFoundation
import Foundation

/// Starts and stops the device's own microphone recordings, which it keeps as media files, and
/// limits their length.
public protocol DeviceAudioRecordingAPI: DeviceAPI {
    /// The longest recording the device makes, in seconds, when known.
    var maxAudioRecordDuration: NSNumber? { get }

    /// Sets the longest recording, in seconds; returns the device's status code.
    func setMaxAudioRecordDuration(_ seconds: NSNumber) async throws -> NSNumber?
    /// Reads the longest recording, updating ``maxAudioRecordDuration``.
    func requestQueryMaxAudioRecordDuration() async throws -> NSNumber
    /// Starts recording; returns the device's status code.
    func requestStartAudioRecording() async throws -> NSNumber?
    /// Stops recording; returns the device file name of the new recording.
    func requestStopAudioRecording() async throws -> String
    /// Starts an AI audio recording (for the device's AI services, a file named `AI_…`) instead of a
    /// normal one; ``requestStopAudioRecording()`` ends either. Returns the device's status code;
    /// a device without AI recordings fails with `deviceNotSupport`.
    func requestStartAIAudioRecording() async throws -> NSNumber?
}

extension DeviceAudioRecordingAPI {
    /// Starts an AI audio recording, then calls `completion` with the device's status code.
    public func requestStartAIAudioRecording(_ completion: AIBudsStatusCodeCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.requestStartAIAudioRecording() }
    }

    /// Sets the longest recording, in seconds.
    public func setMaxAudioRecordDuration(_ seconds: NSNumber, completion: AIBudsStatusCodeCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.setMaxAudioRecordDuration(seconds) }
    }

    /// Starts a microphone recording on the device, then calls `completion` with the device's
    /// status code or the error.
    public func requestStartAudioRecording(_ completion: AIBudsStatusCodeCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.requestStartAudioRecording() }
    }

    /// Stops recording; the device stores the new recording as a media file.
    public func requestStopAudioRecording(_ completion: AIBudsStatusCodeCompletionHandler?) {
        AIBudsCall.run(completion) {
            _ = try await self.requestStopAudioRecording()
            return NSNumber(value: 0)
        }
    }
}
