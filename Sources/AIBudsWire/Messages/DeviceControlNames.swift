/// The wire names of the Device group's settings (docs/protocol.md §3, "Controls"); each is also the
/// `kind` of the event the device pushes when that setting changes.
public enum DeviceSettingName {
    /// ``WorkModeSetting``: normal or low-latency.
    public static let workMode = "workMode"
    /// ``VolumeSetting``: media volume and its maximum.
    public static let volume = "volume"
    /// ``EqualizerSetting``: preset and custom bands.
    public static let equalizer = "equalizer"
    /// ``ANCSetting``: noise cancellation mode, gain and fade.
    public static let anc = "anc"
    /// ``WearSetting``: wear detection on or off and each side's wear status.
    public static let wear = "wear"
    /// ``TWSSetting``: the link between the buds, their batteries and the case (read only).
    public static let tws = "tws"
    /// ``MediaSessionSetting``: the media session the music actions drive (read only).
    public static let media = "media"
    /// ``KeysSetting``: the function of each physical operation.
    public static let keys = "keys"
    /// ``EnabledSetting``: whether the app takes remote shutter presses.
    public static let shutter = "shutter"
    /// ``EnabledSetting``: whether the on-device voice assistant listens.
    public static let voiceAssistant = "voiceAssistant"
    /// ``AppsSetting``: the on-device apps and which run (read only; `app.*` actions change it).
    public static let apps = "apps"
    /// ``ServiceAuthSetting``: the device's service authorization (read only; `auth.*` actions).
    public static let serviceAuth = "serviceAuth"
    /// ``TeleprompterSetting``: pages and scroll position (`teleprompter.*` actions change it).
    public static let teleprompter = "teleprompter"
    /// ``NavigationSetting``: the instruction on the display (`navigation.*` actions change it).
    public static let navigation = "navigation"
    /// ``NavigationAlertSetting``: the alert on the display (`navigation.alert` shows one,
    /// `navigation.stop` clears it).
    public static let navigationAlert = "navigationAlert"
    /// ``FindPhoneSetting``: whether the wearer asked the glasses to find the phone (read only; the
    /// wearer starts it, `phone.found` ends it).
    public static let findPhone = "findPhone"
    /// ``CameraSetting``: the camera module's firmware version (read only).
    public static let camera = "camera"

    /// Every setting name, in the order of docs/protocol.md.
    public static let all = [
        workMode, volume, equalizer, anc, wear, tws, media, keys, shutter, voiceAssistant, apps, serviceAuth,
        teleprompter, navigation, navigationAlert, camera, findPhone,
    ]
}

/// The wire names of the Device group's `action` command (docs/protocol.md §3, "Controls").
public enum DeviceActionName {
    /// `{command: int}`, a `MusicControlCommand` raw value, applied to the media session.
    public static let music = "music"
    /// `{id: text}`: starts that on-device app.
    public static let appStart = "app.start"
    /// `{id: text}`: stops that on-device app.
    public static let appStop = "app.stop"
    /// `{}`: the device authorizes its services again.
    public static let authRetry = "auth.retry"
    /// `{success: bool}`: the app's own authorization result.
    public static let authReport = "auth.report"
    /// `{text: text}`: shows text on the teleprompter, split into pages.
    public static let teleprompterText = "teleprompter.text"
    /// `{page: uint, position: uint}`: scrolls the teleprompter.
    public static let teleprompterScroll = "teleprompter.scroll"
    /// `{}`: takes the teleprompter text off the display (rc 7 when none is shown).
    public static let teleprompterClose = "teleprompter.close"
    /// `{maneuver: text, distance: uint, street: text}`: shows a navigation instruction.
    public static let navigationShow = "navigation.show"
    /// `{}`: ends navigation, its instruction and its alert.
    public static let navigationStop = "navigation.stop"
    /// `{kind: text, distance?: uint}`: shows a navigation alert (a `NavigationAlertKind` raw value).
    public static let navigationAlert = "navigation.alert"
    /// `{}`: the app reports that the wearer found the phone (rc 7 when no search runs).
    public static let phoneFound = "phone.found"
}

/// Event kinds that report something the wearer did rather than a setting (docs/protocol.md §3).
public enum DeviceGestureEventKind {
    /// `{side: "left"|"right"|"device", op: int}`: a physical operation (`PhysicalOperation` raw value).
    public static let keyPress = "keyPress"
    /// `{word: text}`: the voice assistant heard its wake word.
    public static let wakeWord = "wakeWord"
    /// `{}`: the wearer pressed the shutter while remote shutter is on.
    public static let shutterPressed = "shutterPressed"
    /// `{deleted: uint, total: uint}`: Media `delete all` progress.
    public static let deleteProgress = "deleteProgress"
}
