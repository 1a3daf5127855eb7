/// What a spoken request asks the glasses to do (the wiki's "AI Intents"): an action and the slots
/// it needs, found by ``AIIntentGrammar`` offline or by a chat model with a JSON schema
/// (``AIIntent/jsonSchema``).
public struct AIIntent: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The action asked for.
    public var action: AIIntentAction
    /// The place to navigate to (`navigate`).
    public var place: String?
    /// The language to translate into, as said (`startTranslation`, `translateText`): `spanish`.
    public var language: String?
    /// The volume asked for, 0 to 100 (`setVolume`).
    public var level: Int?
    /// The text to translate (`translateText`) or the question (`ask`).
    public var text: String?

    /// An intent of `action` with its slots.
    public init(_ action: AIIntentAction, place: String? = nil, language: String? = nil, level: Int? = nil, text: String? = nil) {
        self.action = action
        self.place = place
        self.language = language
        self.level = level
        self.text = text
    }

    /// Which of the wiki's intent families the action is in.
    public var kind: AIIntentKind { action.kind }

    /// The action and its filled slots, as `aibuds ai intent` prints them: `navigate place=the station`.
    public var description: String {
        var parts = [action.rawValue]
        if let place { parts.append("place=\(place)") }
        if let language { parts.append("language=\(language)") }
        if let level { parts.append("level=\(level)") }
        if let text { parts.append("text=\(text)") }
        return parts.joined(separator: " ")
    }

    /// The JSON schema a chat model's answer must follow to be an intent (llama.cpp's server and
    /// OpenAI's API accept it as `response_format`): an object with `action` (one of
    /// ``AIIntentAction``'s raw values) and the optional slots.
    public static let jsonSchema = """
        {"type":"object","properties":{\
        "action":{"type":"string","enum":[\(AIIntentAction.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ","))]},\
        "place":{"type":"string"},"language":{"type":"string"},\
        "level":{"type":"integer","minimum":0,"maximum":100},"text":{"type":"string"}},\
        "required":["action"],"additionalProperties":false}
        """
}

/// The intent families of the wiki's "AI Intents": what part of the glasses an action concerns.
public enum AIIntentKind: String, Sendable, Codable, CaseIterable {
    /// Photos, videos and audio recordings.
    case capture
    /// The speaker's volume.
    case volume
    /// Music playback.
    case media
    /// Turn-by-turn navigation.
    case navigate
    /// Translation.
    case translate
    /// A question for the assistant.
    case ask
    /// Nothing the glasses can do.
    case none
}

/// One action a spoken request can ask for; the raw values are what the JSON schema allows.
public enum AIIntentAction: String, Sendable, Codable, CaseIterable {
    /// Take a single photo with the glasses' camera.
    case takePhoto
    /// Start recording a video.
    case startVideo
    /// Stop the recording that runs (video or audio).
    case stopRecording
    /// Start an audio recording on the device (a voice memo, a meeting).
    case startAudioRecording
    /// Turn the volume up a step.
    case volumeUp
    /// Turn the volume down a step.
    case volumeDown
    /// Set the volume to ``AIIntent/level``.
    case setVolume
    /// Silence the speaker.
    case mute
    /// Play or resume music.
    case play
    /// Pause music.
    case pause
    /// Skip to the next track.
    case nextTrack
    /// Go back to the previous track.
    case previousTrack
    /// Start navigation to ``AIIntent/place``.
    case navigate
    /// End navigation.
    case stopNavigation
    /// Start translating what is heard, into ``AIIntent/language`` when said.
    case startTranslation
    /// Stop translating.
    case stopTranslation
    /// Translate ``AIIntent/text`` into ``AIIntent/language``.
    case translateText
    /// Ask the assistant ``AIIntent/text``.
    case ask
    /// Not a request the glasses understand.
    case none

    /// The family the action belongs to.
    public var kind: AIIntentKind {
        switch self {
        case .takePhoto, .startVideo, .stopRecording, .startAudioRecording: .capture
        case .volumeUp, .volumeDown, .setVolume, .mute: .volume
        case .play, .pause, .nextTrack, .previousTrack: .media
        case .navigate, .stopNavigation: .navigate
        case .startTranslation, .stopTranslation, .translateText: .translate
        case .ask: .ask
        case .none: .none
        }
    }
}
