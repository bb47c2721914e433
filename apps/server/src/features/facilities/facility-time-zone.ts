// A facility's time zone as its dates are printed: its own, else its organisation's (facilities
// time_zone null inherits organisations.time_zone, migration 0007).
import { sql } from 'drizzle-orm';
import { facilities, organisations } from '../../db/schema/index.ts';

/** SQL: the facility row's effective IANA zone, for a query that selects from `facilities`. */
export const facilityTimeZoneSql = sql<string>`coalesce(${facilities.timeZone}, (select ${organisations.timeZone} from ${organisations} where ${organisations.id} = ${facilities.organisationId}), 'UTC')`;
