/// The `kind` names of ``DeviceEvent`` and the fields of their `value` maps (docs/protocol.md §3).
public enum DeviceEventKind {
    /// `{level, charging}`.
    public static let battery = "battery"
    /// `{state}`, a `WorkState` raw value.
    public static let workState = "workState"
    /// `{used_mb, free_mb}`.
    public static let storage = "storage"
    /// `{photos, videos, audios}`.
    public static let mediaCount = "mediaCount"
    /// `{state}` (a `HotspotState` raw value).
    public static let hotspotState = "hotspotState"
    /// `{generation, types: [int]}`.
    public static let mediaChanged = "mediaChanged"
    /// Every kind above.
    public static let all = [battery, workState, storage, mediaCount, hotspotState, mediaChanged]
}
