import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CALENDAR_DAY_POSTS,
  CalendarAnswerSchema,
  CalendarDaysAnswerSchema,
  CalendarDaysQuery,
  CalendarMoveSchema,
  CalendarPostSchema,
  CalendarQuery,
} from '../../src/contract/calendar';
import { API } from '../../src/contract/endpoints';
import { errorResponses, IdParams } from '../../src/contract/http';
import { actingOf, requireUser } from '../auth/guards';
import { API_TAGS, BEARER } from '../http/openapi';
import type { CalendarService } from './calendar.service';

const fails = errorResponses(400, 401, 404, 500);

/** Issue 21 item 1: the calendar's posts in a range (or its month view's days), and a scheduled post moved to another time. */
export async function calendarRoutes(app: FastifyInstance, { calendar }: { calendar: CalendarService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const doc = { tags: [API_TAGS.calendar], security: BEARER };
  r.get(
    API.calendar.posts,
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'The posts due in a time range',
        description:
          'One entry per post (video × profile × platform), ordered by due time; a user sees their own, an admin all. ' +
          'Cancelled posts only when `state` names them. With `drawnStart`/`drawnEnd`, only those drawn (published, ' +
          'else due) in that span: the full list of one day of the month view.',
        querystring: CalendarQuery,
        response: { 200: CalendarAnswerSchema, ...fails },
      },
    },
    async (req) => calendar.posts(req.user, req.query),
  );
  r.get(
    API.calendar.days,
    {
      ...auth,
      schema: {
        ...doc,
        summary: "The month view's days: each day's first posts and its count",
        description:
          'The posts due in the range (the same filters and owner rule as GET /api/calendar/posts), put in the day of ' +
          '`zone` each is drawn in (published, else due); per day with posts, its first ' +
          `${CALENDAR_DAY_POSTS} in the calendar's order (by that instant, then id) and how many it has in all.`,
        querystring: CalendarDaysQuery,
        response: { 200: CalendarDaysAnswerSchema, ...fails },
      },
    },
    async (req) => calendar.days(req.user, req.query),
  );
  r.post(
    API.calendar.move,
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Move a post that has not started going out to another time',
        params: IdParams,
        body: CalendarMoveSchema,
        response: { 200: CalendarPostSchema, ...fails },
      },
    },
    async (req) => calendar.move(actingOf(req), req.params.id, req.body.at),
  );
}
