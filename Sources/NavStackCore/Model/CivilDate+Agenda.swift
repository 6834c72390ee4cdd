import NavStackTime

extension CivilDate {
    /// The days the agenda shows: those a link names (`agenda/YYYY-MM-DD`, four digits of
    /// year), so every day screen has a URL that `go` opens.
    public static let agendaDays = CivilDate(year: 1, month: 1, day: 1)!...CivilDate(year: 9999, month: 12, day: 31)!
}
