import Foundation

/// Finds the ``AIIntent`` of an utterance offline, with a grammar of command phrasings: "take a
/// picture", "turn the volume up", "navigate to the station", "translate good morning into
/// spanish", "what time is it" (a question: ``AIIntentAction/ask``).
///
/// A phrasing is a pattern of words matched against the whole utterance after it is lowercased and
/// stripped of punctuation. In a pattern, `(a|b c)` is one of the choices, `[a|b]` one of them or
/// nothing, and `{place}`, `{language}`, `{text}` and `{level}` are slots: one word or more (a
/// `{level}` is a number, in digits or words: "forty five"). Polite words around a command ("please",
/// "can you", "for me") are allowed everywhere. Nothing is matched loosely: a phrasing the grammar
/// does not have is ``AIIntentAction/none`` (or `ask` when it is a question), never a guess.
public struct AIIntentGrammar: Sendable {
    /// One action and the phrasings that ask for it.
    public struct Rule: Sendable {
        /// The action the phrasings ask for.
        public var action: AIIntentAction
        fileprivate var patterns: [[Element]]

        /// A rule from patterns in the grammar's notation (see ``AIIntentGrammar``).
        public init(_ action: AIIntentAction, _ patterns: [String]) {
            self.action = action
            self.patterns = patterns.map(Element.parse)
        }
    }

    /// The rules, tried in order: the first that matches gives the intent.
    public let rules: [Rule]

    /// A grammar that tries `rules` in their order (an app's own commands, or ``standard``'s
    /// rules with more added).
    public init(rules: [Rule]) {
        self.rules = rules
    }

    /// The intent of `utterance`: the first rule that matches all of it, else `ask` with the
    /// utterance as its text when it is a question, else `none`.
    public func intent(for utterance: String) -> AIIntent {
        let words = Self.words(of: utterance)
        guard !words.isEmpty else { return AIIntent(.none) }
        let body = Self.strippingCourtesy(words)
        for rule in rules {
            for pattern in rule.patterns {
                if let slots = Self.match(pattern[...], body[...]) {
                    return Self.intent(rule.action, slots)
                }
            }
        }
        let trimmed = utterance.trimmingCharacters(in: .whitespacesAndNewlines)
        if Self.questionWords.contains(body[0]) || trimmed.hasSuffix("?") {
            return AIIntent(.ask, text: trimmed)
        }
        return AIIntent(.none)
    }

    /// `text` lowercased, as words without punctuation (apostrophes kept, hyphens split): what the
    /// grammar and wake phrases compare.
    public static func words(of text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'") }.map(String.init)
    }

    // MARK: Matching

    fileprivate enum Element: Sendable {
        case word(String)
        case choice([[String]], optional: Bool)
        case slot(String)

        static func parse(_ pattern: String) -> [Element] {
            var elements: [Element] = []
            var rest = Substring(pattern)
            while let first = rest.first {
                if first == " " {
                    rest = rest.dropFirst()
                } else if first == "(" || first == "[", let close = rest.firstIndex(of: first == "(" ? ")" : "]") {
                    let choices = rest[rest.index(after: rest.startIndex)..<close].split(separator: "|").map {
                        $0.split(separator: " ").map(String.init)
                    }
                    elements.append(.choice(choices, optional: first == "["))
                    rest = rest[rest.index(after: close)...]
                } else if first == "{", let close = rest.firstIndex(of: "}") {
                    elements.append(.slot(String(rest[rest.index(after: rest.startIndex)..<close])))
                    rest = rest[rest.index(after: close)...]
                } else {
                    let end = rest.firstIndex(of: " ") ?? rest.endIndex
                    elements.append(.word(String(rest[..<end])))
                    rest = rest[end...]
                }
            }
            return elements
        }
    }

    /// The slots of a match of `pattern` against all of `words`, or nil. Slots take as few words
    /// as let the rest match.
    private static func match(_ pattern: ArraySlice<Element>, _ words: ArraySlice<String>) -> [String: [String]]? {
        guard let element = pattern.first else {
            return words.isEmpty || courtesySuffixes.contains(where: { $0[...] == words }) ? [:] : nil
        }
        let rest = pattern.dropFirst()
        switch element {
        case .word(let word):
            guard words.first == word else { return nil }
            return match(rest, words.dropFirst())
        case .choice(let choices, let optional):
            for choice in choices where words.starts(with: choice) {
                if let slots = match(rest, words.dropFirst(choice.count)) { return slots }
            }
            return optional ? match(rest, words) : nil
        case .slot(let name):
            let most = name == "level" ? min(3, words.count) : words.count
            guard most >= 1 else { return nil }
            for count in 1...most {
                let taken = Array(words.prefix(count))
                if name == "level", number(taken) == nil { continue }
                if name == "language", !taken.allSatisfy(languageNames.contains) { continue }
                if var slots = match(rest, words.dropFirst(count)) {
                    slots[name] = taken
                    return slots
                }
            }
            return nil
        }
    }

    private static func intent(_ action: AIIntentAction, _ slots: [String: [String]]) -> AIIntent {
        func text(_ name: String) -> String? { slots[name].map { $0.joined(separator: " ") } }
        return AIIntent(
            action, place: text("place"), language: text("language"),
            level: slots["level"].flatMap(number).map { min(100, $0) }, text: text("text"))
    }

    /// Drops polite openings ("please", "can you", "ok so") from the front of an utterance.
    private static func strippingCourtesy(_ words: [String]) -> [String] {
        var body = words[...]
        var changed = true
        while changed, body.count > 1 {
            changed = false
            for opening in courtesyOpenings where body.starts(with: opening) && body.count > opening.count {
                body = body.dropFirst(opening.count)
                changed = true
            }
        }
        return Array(body)
    }

    private static let courtesyOpenings: [[String]] = [
        "please", "ok", "okay", "so", "now", "just", "hey", "can you", "could you", "would you", "will you",
        "i want to", "i'd like to", "i would like to", "let's", "lets", "go ahead and", "i want you to",
    ].map { $0.split(separator: " ").map(String.init) }

    private static let courtesySuffixes: [[String]] = ["please", "now", "for me", "right now", "for me please", "now please"]
        .map { $0.split(separator: " ").map(String.init) }

    private static let questionWords: Set<String> = [
        "what", "what's", "who", "who's", "where", "where's", "when", "why", "how", "which", "is", "are", "can",
        "could", "do", "does", "did", "will", "would", "should", "tell", "explain",
    ]

    /// The languages a `{language}` slot takes, by their English names.
    static let languageNames: Set<String> = [
        "english", "spanish", "french", "german", "italian", "portuguese", "brazilian", "dutch", "catalan", "galician",
        "basque", "swedish", "norwegian", "danish", "finnish", "polish", "czech", "russian", "ukrainian", "greek",
        "turkish", "arabic", "hebrew", "hindi", "bengali", "urdu", "chinese", "mandarin", "cantonese", "japanese",
        "korean", "vietnamese", "thai", "indonesian", "malay", "romanian", "hungarian", "esperanto", "occitan",
    ]

    /// A number said in digits ("45") or words ("forty five", "a hundred"), 0 to 100.
    static func number(_ words: [String]) -> Int? {
        if words.count == 1, let value = Int(words[0].trimmingCharacters(in: CharacterSet(charactersIn: "%"))) { return value }
        let units = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                     "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
        let tens = ["twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90]
        switch words.count {
        case 1:
            if words[0] == "hundred" { return 100 }
            return units.firstIndex(of: words[0]) ?? tens[words[0]]
        case 2:
            if ["a", "one"].contains(words[0]), words[1] == "hundred" { return 100 }
            guard let ten = tens[words[0]], let unit = units.firstIndex(of: words[1]), (1...9).contains(unit) else { return nil }
            return ten + unit
        default:
            return nil
        }
    }
}

extension AIIntentGrammar {
    /// The grammar of the glasses' commands: capture, volume, media, navigation and translation.
    public static let standard = AIIntentGrammar(rules: [
        Rule(.takePhoto, [
            "take [a|an|the|another] [quick|new] (photo|picture|pic|snapshot|shot|photograph)",
            "(snap|capture|grab) [a|an|the|another] (photo|picture|pic|shot|photograph)",
            "say cheese",
        ]),
        Rule(.stopRecording, [
            "stop [the] (recording|video|filming|video recording|audio recording|voice memo)",
            "(end|finish) [the] (recording|video|video recording|audio recording)",
            "stop record",
        ]),
        Rule(.startVideo, [
            "(record|shoot|take|film|start|begin|capture) [a|an|the] video [recording]",
            "(start|begin) (recording|filming) [a] [video]",
            "(record|film) this",
        ]),
        Rule(.startAudioRecording, [
            "(record|start recording|capture) [the|some] audio",
            "(start|begin) [an|the] (audio recording|voice memo|voice note)",
            "record [a|the|this] (voice memo|voice note|memo|meeting|conversation)",
        ]),
        Rule(.setVolume, [
            "(set|turn|change|put) [the] volume (to|at) {level} [percent]",
            "volume [to|at] {level} [percent]",
        ]),
        Rule(.volumeUp, [
            "(turn|crank|pump) (it|the volume|the sound|the music|this) up",
            "(turn|crank|pump) up [the] (volume|sound|music)",
            "(volume|sound) up",
            "(increase|raise) [the] (volume|sound)",
            "[make it|a bit|a little] louder",
        ]),
        Rule(.volumeDown, [
            "(turn) (it|the volume|the sound|the music|this) down",
            "turn down [the] (volume|sound|music)",
            "(volume|sound) down",
            "(decrease|lower|reduce) [the] (volume|sound)",
            "[make it|a bit|a little] (quieter|softer)",
        ]),
        Rule(.mute, ["mute [the] [sound|speaker|audio|volume|music]", "(silence|be quiet)"]),
        Rule(.nextTrack, [
            "(next|skip) [the|this] [track|song]",
            "(play|go to|skip to) the next (track|song)",
            "play next",
        ]),
        Rule(.previousTrack, [
            "(previous|last) (track|song)",
            "(play|go to|skip to|go back to) the (previous|last) (track|song)",
            "go back [a] [track|song]",
        ]),
        Rule(.pause, ["pause [the] [music|song|track|playback]", "stop [the] (music|playback|song)"]),
        Rule(.play, ["(play|resume) [the] [music|song|track|playback]", "(continue|keep) playing", "unpause"]),
        Rule(.stopNavigation, [
            "(stop|end|cancel|quit) [the] (navigation|navigating|directions|route|guidance)",
        ]),
        Rule(.navigate, [
            "(navigate|take me|guide me|route me|lead me|walk me|drive me|get me) to {place}",
            "[give me|get] directions to {place}",
            "how do i (get|go) to {place}",
            "show me the way to {place}",
        ]),
        Rule(.stopTranslation, [
            "(stop|end|cancel|quit) [the] (translation|translating|interpretation|interpreting)",
        ]),
        Rule(.startTranslation, [
            "(start|begin) [the] (translation|translating|interpretation|interpreting) (into|to) {language}",
            "(start|begin) [the] (translation|translating|interpretation|interpreting)",
            "translate (into|to) {language}",
            "translate [this|for me|what they say|what i hear|the conversation]",
        ]),
        Rule(.translateText, [
            "translate {text} (into|to) {language}",
            "how do (you|i) say {text} in {language}",
            "what is {text} in {language}",
            "what's {text} in {language}",
        ]),
    ])
}
