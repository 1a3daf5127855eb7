import AIBudsAIFoundation

/// What the voice assistant hears and does, in order.
public enum VoiceAssistantEvent: Sendable, Equatable {
    /// The assistant listens to the microphone.
    case listening
    /// An utterance was transcribed (`seconds` into the listening, where it ended).
    case heard(text: String, at: Double)
    /// The wake phrase was heard (in a partial transcript as soon as it is said, or in the final one).
    case wake(at: Double)
    /// A command was understood after the wake phrase.
    case command(AIIntent, text: String)
    /// Speech after the wake phrase is no command the grammar knows.
    case notUnderstood(text: String)
    /// The command was carried out on the device; `detail` says what came of it (the new photo's
    /// name, the volume set).
    case executed(AIIntent, detail: String)
    /// The command was not carried out because the voice assistant service is not authorized on the
    /// device (``/AIBudsFoundation/ServiceAuthState``), or the device cannot do it.
    case refused(AIIntent, reason: String)
    /// The device failed the command.
    case failed(AIIntent, message: String)
    /// The command concerns the app, not the device (translation, a question): the app acts on it.
    case forwarded(AIIntent)
}
