import { randomUUID } from 'node:crypto';
import { json, listen, type Row, type StyleServer } from './generated-style-servers.js';

/**
 * A correct server of test/contracts/workspace-tasks written apart from the mock, choosing where the contract is
 * silent: any workspace slug exists, project ids count up from 500 by 7, tasks answer every nullable field (null
 * when unset) and their project_id, lists are newest first, and a project's delete takes its tasks. Each
 * `breakage` makes it wrong in one way.
 */
export type TaskBreakage = 'task-in-any-project' | 'null-ignored' | 'project-in-any-workspace';

const WORKSPACE = /^[a-z][a-z0-9-]{2,30}$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

function taskProblem(b: Row, partial: boolean): string | undefined {
  if (partial ? Object.keys(b).length === 0 : b.title === undefined) return partial ? 'send a field' : 'title is required';
  const t = b.title;
  if (t !== undefined && (typeof t !== 'string' || t.length < 1 || [...t].length > 120)) return 'title is short text';
  if (b.done !== undefined && typeof b.done !== 'boolean') return 'done is a boolean';
  const a = b.assignee;
  if (a !== undefined && a !== null && (typeof a !== 'string' || [...a].length > 40)) return 'assignee is short text';
  if (b.due !== undefined && b.due !== null && (typeof b.due !== 'string' || !DATE.test(b.due))) return 'due is a date';
  const e = b.estimate;
  if (e !== undefined && e !== null && (typeof e !== 'number' || e < 0 || e > 1000)) return 'estimate is 0 to 1000';
  return undefined;
}

export async function startTasksServer(key: string, breakage?: TaskBreakage): Promise<StyleServer> {
  const projects = new Map<string, Row>();
  const tasks = new Map<string, Row>();
  let next = 500;
  return listen('/v1', async (req, res, path, query, text) => {
    const send = (status: number, body?: unknown) => json(res, status, body);
    const problem = (status: number, title: string, detail?: string) =>
      json(res, status, { type: 'about:blank', title, status, ...(detail ? { detail } : {}) }, 'application/problem+json');
    if (req.headers.authorization !== `Bearer ${key}`) {
      res.setHeader('www-authenticate', 'Bearer');
      return problem(401, 'Unauthorized');
    }
    const body = (): Row | undefined => {
      if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
        problem(415, 'Unsupported Media Type');
        return undefined;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        problem(400, 'Bad Request', 'send JSON');
        return undefined;
      }
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Row;
      problem(422, 'Unprocessable Content', 'send a JSON object');
      return undefined;
    };
    const m = /^\/workspaces\/([^/]+)\/projects(?:\/([^/]+)(?:\/tasks(?:\/([^/]+))?)?)?$/.exec(path);
    if (!m || !WORKSPACE.test(decodeURIComponent(m[1] as string))) return problem(404, 'Not Found');
    const ws = decodeURIComponent(m[1] as string);
    const [projectId, tasksAt, taskId] = [m[2], path.includes('/tasks'), m[3]];
    const allow = (methods: string) => {
      res.setHeader('allow', methods);
      problem(405, 'Method Not Allowed');
    };
    if (projectId === undefined) {
      if (req.method === 'GET' || req.method === 'HEAD')
        return send(
          200,
          [...projects.values()].filter((p) => p.workspace === ws).map(({ workspace: _, ...p }) => p),
        );
      if (req.method !== 'POST') return allow('GET, HEAD, POST');
      const b = body();
      if (!b) return;
      const known = new Set(['name', 'description']);
      if (Object.keys(b).some((k) => !known.has(k))) return problem(422, 'Unprocessable Content', 'unknown fields');
      if (typeof b.name !== 'string' || b.name.length < 1 || [...b.name].length > 80)
        return problem(422, 'Unprocessable Content', 'name');
      const d = b.description;
      if (d !== undefined && d !== null && (typeof d !== 'string' || [...d].length > 500))
        return problem(422, 'Unprocessable Content', 'description');
      const project = { id: next, name: b.name, ...(d === undefined ? {} : { description: d }) };
      next += 7;
      projects.set(`${ws}/${project.id}`, { ...project, workspace: ws });
      res.setHeader('location', `/v1/workspaces/${ws}/projects/${project.id}`);
      return send(201, project);
    }
    const project =
      breakage === 'project-in-any-workspace'
        ? [...projects.values()].find((p) => String(p.id) === projectId)
        : projects.get(`${ws}/${projectId}`);
    if (!tasksAt) {
      if (!project) return problem(404, 'Not Found', 'no such project');
      const { workspace: _, ...shown } = project;
      if (req.method === 'GET' || req.method === 'HEAD') return send(200, shown);
      if (req.method !== 'DELETE') return allow('GET, HEAD, DELETE');
      projects.delete(`${ws}/${projectId}`);
      for (const [id, task] of tasks) if (task.project_id === project.id && task.workspace === ws) tasks.delete(id);
      return send(204);
    }
    if (!project) return problem(404, 'Not Found', 'no such project');
    const shown = ({ workspace: _, ...task }: Row) => task;
    const mine = (task: Row | undefined) =>
      task && (breakage === 'task-in-any-project' || (task.project_id === project.id && task.workspace === ws))
        ? task
        : undefined;
    if (taskId === undefined) {
      if (req.method === 'GET' || req.method === 'HEAD') {
        const done = query.get('done');
        const assignee = query.get('assignee');
        if (done !== null && done !== 'true' && done !== 'false') return problem(400, 'Bad Request', 'done');
        const listed = [...tasks.values()]
          .filter((t) => mine(t) && (done === null || String(t.done) === done) && (assignee === null || t.assignee === assignee))
          .reverse();
        return send(200, listed.map(shown));
      }
      if (req.method !== 'POST') return allow('GET, HEAD, POST');
      const b = body();
      if (!b) return;
      const wrong = taskProblem(b, false);
      if (wrong) return problem(422, 'Unprocessable Content', wrong);
      const task = {
        id: randomUUID(),
        project_id: project.id,
        title: b.title,
        done: b.done ?? false,
        assignee: b.assignee ?? null,
        due: b.due ?? null,
        estimate: b.estimate ?? null,
        workspace: ws,
      };
      tasks.set(task.id, task);
      return send(201, shown(task));
    }
    const task = mine(tasks.get(decodeURIComponent(taskId)));
    if (!task) return problem(404, 'Not Found', 'no such task');
    if (req.method === 'GET' || req.method === 'HEAD') return send(200, shown(task));
    if (req.method === 'PATCH') {
      const b = body();
      if (!b) return;
      const wrong = taskProblem(b, true);
      if (wrong) return problem(422, 'Unprocessable Content', wrong);
      for (const field of ['title', 'done', 'assignee', 'due', 'estimate'])
        if (b[field] !== undefined && (b[field] !== null || breakage !== 'null-ignored')) task[field] = b[field];
      return send(204);
    }
    if (req.method !== 'DELETE') return allow('GET, HEAD, PATCH, DELETE');
    tasks.delete(task.id as string);
    return send(204);
  });
}
