import AIBudsWire

// The AI audio path (Audio group 68): streams open only in the device's AI conversation.
extension EmulatedDevice {
    /// Opens the microphone stream and enters the AI conversation (`aiConversing`).
    public func startMicrophone() throws(EmulatorError) -> UInt64 {
        try requireAIAudio()
        let id = try audio.startMicrophone { [weak self] in self?.notifyObservers() }
        setAIConversation(open: true)
        return id
    }

    /// Closes microphone stream `id`; the AI conversation ends when no stream is left.
    public func stopMicrophone(_ id: UInt64) throws(EmulatorError) {
        try audio.stopMicrophone(id)
        setAIConversation(open: audio.isStreaming)
        notifyObservers()
    }

    /// Opens a speaker stream and enters the AI conversation (`aiConversing`).
    public func startSpeaker() throws(EmulatorError) -> UInt64 {
        try requireAIAudio()
        let id = try audio.startSpeaker()
        setAIConversation(open: true)
        return id
    }

    /// Ends speaker stream `id` after `frames` frames; the AI conversation ends when no stream is left.
    public func stopSpeaker(_ id: UInt64, frames: UInt64) throws(EmulatorError) -> AudioSpeakerStopResponse {
        let response = try audio.stopSpeaker(id, frames: frames)
        setAIConversation(open: audio.isStreaming)
        return response
    }

    /// The wearer (or the device) ends the AI conversation: every audio stream ends.
    public func endAIConversation() {
        audio.endAll()
        setAIConversation(open: false)
        notifyObservers()
    }

    private func requireAIAudio() throws(EmulatorError) {
        guard profile.capabilities.contains("aiAudio") else {
            throw EmulatorError(.notSupported, "the \(profile.kind.rawValue) profile has no AI audio path")
        }
        guard workState != .recordingVideo else { throw EmulatorError(.busy, "the device is recording a video") }
    }
}
