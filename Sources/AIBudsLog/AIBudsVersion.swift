/// The SDK's release: one semantic version for every module of the package (they ship together),
/// the version CHANGELOG.md's newest entry names. Log headers and crash reports carry it.
public enum AIBudsVersion {
    /// `MAJOR.MINOR.PATCH` (semver.org); before 1.0.0 a minor release may change the API.
    public static let semantic = "0.9.0"
    /// The release's date, `YYYY-MM-DD`.
    public static let releaseDate = "2026-12-02"
    /// The build number: the release's date as `YYYYMMDD`.
    public static let build = "20261202"
}
