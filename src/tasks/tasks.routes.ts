import { Router, type Request } from 'express';
import type { operations } from '../../generated/api.js';
import type { TasksService } from './tasks.service.js';

type ListQuery = NonNullable<operations['listTasks']['parameters']['query']>;
type CreateBody = operations['createTask']['requestBody']['content']['application/json'];
type UpdateBody = operations['updateTask']['requestBody']['content']['application/json'];
type TaskPath = operations['getTask']['parameters']['path'];

/** /tasks and /tasks/{taskId}: the document has checked the caller, scopes and shapes before these run. */
export function createTasksRouter(service: TasksService): Router {
  const router = Router();

  router.get('/tasks', async (req, res) => {
    res.json(await service.list(accountOf(req), listQuery(req.query as Record<string, unknown>)));
  });

  router.post('/tasks', async (req, res) => {
    const { status, body } = await service.create(accountOf(req), req.body as CreateBody, req.get('Idempotency-Key'));
    res.status(status).location(`/tasks/${body.id}`).json(body);
  });

  router.get('/tasks/:taskId', async (req: Request<TaskPath>, res) => {
    res.json(await service.get(accountOf(req), req.params.taskId));
  });

  router.patch('/tasks/:taskId', async (req: Request<TaskPath>, res) => {
    res.json(await service.update(accountOf(req), req.params.taskId, req.body as UpdateBody));
  });

  router.delete('/tasks/:taskId', async (req: Request<TaskPath>, res) => {
    await service.remove(accountOf(req), req.params.taskId);
    res.status(204).end();
  });

  return router;
}

// The security handlers reject any request to these operations without a caller.
const accountOf = (req: Request<object>): string => req.caller!.accountId;

/** The validator has checked the query against the document; numbers may still arrive as strings. */
function listQuery(query: Record<string, unknown>): ListQuery {
  return {
    status: query.status as ListQuery['status'],
    limit: query.limit === undefined ? undefined : Number(query.limit),
    cursor: query.cursor as string | undefined,
    updatedSince: query.updatedSince as string | undefined,
  };
}
