// The axes of the worklist bench's filter matrix (worklist-bench-matrix.ts): the date ranges and the
// filters each caller's rows combine, as the worklist's screen sends them.

export type TMatrixCaller = {
  /** "admin, all facilities", … */
  name: string;
  token: string;
  /** 5 facilities the caller may filter by. */
  facilityIds: readonly string[];
  /**
   * A surname found in the caller's scope ("smith" and "fernand" find nothing at the staff callers'
   * facilities: the generator's surnames follow the patient number, as do their facilities).
   */
  scopeSearch?: string;
};

function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The date axis: the default (today), two presets, a custom 30 days and all dates (CUSTOM, no bounds). */
export function matrixDates(now: Date): { name: string; query: string }[] {
  const start = new Date(now.getTime() - 30 * 86_400_000);
  return [
    { name: 'today (default)', query: '' },
    { name: 'last week', query: 'date_range_type=LAST_1_WEEK' },
    { name: 'last month', query: 'date_range_type=LAST_1_MONTH' },
    {
      name: 'custom 30 days',
      query: `date_range_type=CUSTOM&start_date=${isoDay(start)}&end_date=${isoDay(now)}`,
    },
    { name: 'all dates', query: 'date_range_type=CUSTOM' },
  ];
}

/** The filter axis. */
export function matrixFilters(
  caller: TMatrixCaller,
  radiologistId: string,
): { name: string; query: string }[] {
  const repeated = (name: string, values: readonly string[]) =>
    values.map((value) => `${name}=${value}`).join('&');
  const inProgress = repeated('statuses', ['TO_READ', 'ASSIGNED', 'IN_REVIEW', 'DRAFTED']);
  return [
    { name: '—', query: '' },
    { name: 'modalities=CT', query: 'modalities=CT' },
    { name: 'modalities=CT+MRI', query: repeated('modalities', ['CT', 'MRI']) },
    { name: 'In Progress tab (4 statuses)', query: inProgress },
    { name: 'Completed tab (FINAL)', query: 'statuses=FINAL' },
    { name: 'priority URGENT + EMERGENCY', query: repeated('priority_tags', ['URGENT', 'EMERGENCY']) },
    { name: '5 facilities', query: repeated('facility_ids', caller.facilityIds) },
    { name: 'by_user_ids=radiologist', query: `by_user_ids=${radiologistId}` },
    { name: 'search "smith"', query: 'search=smith' },
    { name: 'search "fernand"', query: 'search=fernand' },
    // Texts many studies hold (a study word, patient ids' first digits): walked, counted up to the cap.
    { name: 'search "brain"', query: 'search=brain' },
    { name: 'search "MRN01"', query: 'search=MRN01' },
    // Identifiers: a patient id's prefix few studies hold though each of its trigrams is in most (the
    // digit-gram index), a whole accession, and an accession's prefix a tenth of the archive holds.
    { name: 'search "MRN0000"', query: 'search=MRN0000' },
    { name: 'search "A000500000"', query: 'search=A000500000' },
    { name: 'search "A0003"', query: 'search=A0003' },
    // With a modality filter: a text it makes rare (no MRI says "chest" here; "ct": CT's descriptions),
    // one it keeps common, a name.
    { name: 'search "chest" + modalities=MRI', query: 'search=chest&modalities=MRI' },
    {
      name: 'search "ct" + modalities=MRI+XRAY',
      query: `search=ct&${repeated('modalities', ['MRI', 'XRAY'])}`,
    },
    { name: 'search "brain" + modalities=CT', query: 'search=brain&modalities=CT' },
    { name: 'search "smith" + modalities=CT', query: 'search=smith&modalities=CT' },
    // In the open studies' tabs: a rare text, a common one, one most open studies hold, a pair.
    { name: 'Ordered tab + search "bone"', query: 'statuses=ORDERED&search=bone' },
    { name: 'In Progress tab + search "brain"', query: `${inProgress}&search=brain` },
    { name: 'In Progress tab + search "MRN01"', query: `${inProgress}&search=MRN01` },
    { name: 'Ordered tab + search "ab"', query: 'statuses=ORDERED&search=ab' },
    // A common text under a filter that keeps a few thousand of a month's studies (a status picked in
    // the filter, a priority): the range's own rows tested, not the text's every study.
    { name: 'Drafted + search "brain"', query: 'statuses=DRAFTED&search=brain' },
    { name: 'priority URGENT + search "brain"', query: 'priority_tags=URGENT&search=brain' },
    // Texts no trigram index knows (fewer than three ASCII letters or digits in a row), as typed.
    { name: 'search "a"', query: 'search=a' },
    { name: 'search "sm"', query: 'search=sm' },
    // A name typed with its accent: three ASCII letters once folded ("zso"), found by their trigram.
    { name: 'search "Zsó"', query: `search=${encodeURIComponent('Zsó')}` },
    // Two letters that no study holds: every study of the range is a candidate without an index.
    { name: 'search "zq"', query: 'search=zq' },
    // A column header clicked: by patient name (past 2,000 matches the first entries of its sort index,
    // migration 0036) or study date, alone and with a keyless text (common, clustered by name, nowhere).
    { name: 'sorted by patient name', query: 'sort_by=patient_name&sort_order=asc' },
    { name: 'sorted by study date, oldest first', query: 'sort_by=datetime&sort_order=asc' },
    // A few thousand matches over all dates, scattered: walked from the column's sort index.
    {
      name: 'Ordered + To read, NM + MRI, by series count',
      query: `${repeated('statuses', ['ORDERED', 'TO_READ'])}&${repeated('modalities', ['NM', 'MRI'])}&sort_by=series_count&sort_order=asc`,
    },
    { name: 'sorted by study date, newest first', query: 'sort_by=datetime&sort_order=desc' },
    // The other column headers (walked on their own sort indexes past 2,000 matches, migration 0034).
    { name: 'sorted by last update', query: 'sort_by=updated_at&sort_order=desc' },
    // Oldest first from a range's start: walked a day of arrival at a time (migration 0040).
    { name: 'sorted by last update, oldest first', query: 'sort_by=updated_at&sort_order=asc' },
    // The same with a text: the last update's sort index walked from the range's start (migration 0044).
    {
      name: 'search "ab", by last update, oldest first',
      query: 'search=ab&sort_by=updated_at&sort_order=asc',
    },
    { name: 'sorted by modality', query: 'sort_by=modality&sort_order=asc' },
    { name: 'sorted by patient id', query: 'sort_by=patient_id&sort_order=asc' },
    { name: 'sorted by study description', query: 'sort_by=study&sort_order=desc' },
    { name: 'sorted by status', query: 'sort_by=status&sort_order=asc' },
    { name: 'sorted by priority', query: 'sort_by=priority_tag&sort_order=desc' },
    { name: 'sorted by series count', query: 'sort_by=series_count&sort_order=desc' },
    // A modality filter sorted by a column whose values follow the modality: the group's studies lie
    // together far into the column's sort index (migration 0038).
    { name: 'modalities=MRI, by study description', query: 'modalities=MRI&sort_by=study&sort_order=desc' },
    // Every deleted study of all dates comes first in the status sort index, descending.
    { name: 'modalities=CT, by status descending', query: 'modalities=CT&sort_by=status&sort_order=desc' },
    {
      name: 'modalities=CT+MRI, by modality',
      query: `${repeated('modalities', ['CT', 'MRI'])}&sort_by=modality&sort_order=desc`,
    },
    { name: 'search "a", by patient name', query: 'search=a&sort_by=patient_name&sort_order=asc' },
    // A text 15 studies in 100 hold (every MRI), a page deep into another column's order.
    {
      name: 'search "lumbar spine", by patient id, offset 500',
      query: `search=lumbar%20spine&sort_by=patient_id&sort_order=asc&offset=500`,
    },
    // A text one study in four holds, oldest first from the range's start: its sort index begins
    // outside the range (walked a day of arrival at a time for an admin).
    {
      name: 'search "brain", by study date, oldest first',
      query: 'search=brain&sort_by=datetime&sort_order=asc',
    },
    { name: 'search "sm", by patient name', query: 'search=sm&sort_by=patient_name&sort_order=asc' },
    { name: 'search "zq", by patient name', query: 'search=zq&sort_by=patient_name&sort_order=asc' },
    // A keyless text one modality group holds alone, by a column the group leads: the groups before it
    // in the index's order were walked for nothing, then its 250,000 matches collected (400 ms).
    { name: 'search "ct", by modality descending', query: 'search=ct&sort_by=modality&sort_order=desc' },
    // An accession block weeks back (100,000 studies, none among the newest), by another column: its
    // matches were every one collected and sorted (300-950 ms over all dates).
    { name: 'search "A0003", by status', query: 'search=A0003&sort_by=status&sort_order=asc' },
    { name: 'search "A0000", by patient name', query: 'search=A0000&sort_by=patient_name&sort_order=desc' },
    // Still collected: study dates follow arrival, and half the patient ids hold "MRN01", all past the
    // other half in the patient id order.
    { name: 'search "A0005", by study date', query: 'search=A0005&sort_by=datetime&sort_order=desc' },
    { name: 'search "MRN01", by patient id', query: 'search=MRN01&sort_by=patient_id&sort_order=asc' },
    ...(caller.scopeSearch
      ? [
          {
            name: `search "${caller.scopeSearch}" (in scope)`,
            query: `search=${encodeURIComponent(caller.scopeSearch)}`,
          },
        ]
      : []),
  ];
}
