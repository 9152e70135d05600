import type { Task } from '@task-service/sdk';
import { Problem } from '../ui.js';
import { dueState } from './due.js';
import { TaskForm } from './task-form.component.js';

export interface RowProps {
  task: Task;
  editing: boolean;
  /** Deleted on another device while open for editing. */
  gone: boolean;
  problem: unknown;
  onToggle: (task: Task) => void;
  onEdit: (task: Task) => void;
  onDelete: (task: Task) => void;
  onSaved: (task: Task) => void;
  onClose: (task: Task, saved: boolean) => void;
}

/** One task: done checkbox, title with its priority, labels and due date, and Edit / Delete; or, open, its form. */
export function TaskRow({ task, editing, gone, problem, onToggle, onEdit, onDelete, onSaved, onClose }: RowProps) {
  const due = dueState(task.dueAt, task.status);
  const classes = ['task', task.status === 'completed' ? 'done' : '', due && due.state !== 'later' ? due.state : ''].filter(Boolean).join(' ');
  return (
    <li class={classes} data-task-id={task.id}>
      {editing ? (
        <TaskForm task={task} gone={gone} onSaved={onSaved} onClose={(saved) => onClose(task, saved)} />
      ) : (
        <div class="task-line">
          <label class="check-target">
            <input type="checkbox" checked={task.status === 'completed'} onChange={() => onToggle(task)} aria-label={`Done: ${task.title}`} />
          </label>
          <div class="task-main">
            <span class="title">{task.title}</span>
            <span class="meta">
              <span class={`badge p${task.priority}`}>P{task.priority}</span>
              {task.labels.map((label) => (
                <span key={label} class="badge label">
                  #{label}
                </span>
              ))}
              {due && <span class={`due ${due.state}`}>{due.text}</span>}
              {task.notes && <span class="muted notes-mark">Has notes</span>}
            </span>
          </div>
          <span class="actions">
            <button type="button" class="secondary" onClick={() => onEdit(task)} aria-label={`Edit: ${task.title}`}>
              Edit
            </button>
            <button type="button" class="danger" onClick={() => onDelete(task)} aria-label={`Delete: ${task.title}`}>
              Delete
            </button>
          </span>
        </div>
      )}
      <Problem error={problem} />
    </li>
  );
}
