// Crucible's web console: plain JavaScript over the public API, with the key the user typed (session storage only).
'use strict';

const KEY = 'crucible.key';
const $ = (selector) => document.querySelector(selector);
const SECTIONS = ['login', 'models', 'jobs', 'chat', 'feedback', 'completions', 'usage'];
const FINAL = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);
let following = null; // the AbortController of the job stream being shown

function key() { return sessionStorage.getItem(KEY); }

/** Calls the API with the key; answers parsed JSON, or throws the error envelope's message. */
async function api(path, options = {}) {
  const headers = Object.assign({ Authorization: 'Bearer ' + key() }, options.headers || {});
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, Object.assign({}, options, {
    headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) }));
  if (response.status === 401) { signOut('That key was not accepted.'); throw new Error('not signed in'); }
  const text = await response.text();
  const json = text ? JSON.parse(text) : {};
  if (!response.ok) throw new Error((json.error && json.error.message) || ('HTTP ' + response.status));
  return json;
}

/** Every item of a cursor-paged list. */
async function all(path) {
  const items = [];
  let after = null;
  do {
    const page = await api(path + (path.includes('?') ? '&' : '?') + 'limit=100' + (after ? '&after=' + encodeURIComponent(after) : ''));
    items.push(...page.data);
    after = page.has_more ? page.last_id : null;
  } while (after);
  return items;
}

/** Reads a server-sent event stream (fetch, so the key goes in a header), handing each data line's JSON on. */
async function stream(path, options, onData, signal) {
  const headers = { Authorization: 'Bearer ' + key(), Accept: 'text/event-stream' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method: options.method || 'GET', headers, signal,
    body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  if (!response.ok) {
    const json = await response.json().catch(() => ({}));
    throw new Error((json.error && json.error.message) || ('HTTP ' + response.status));
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return;
      onData(JSON.parse(data));
    }
  }
}

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text === null || text === undefined ? '' : String(text);
  if (className) td.className = className;
  return td;
}

function fill(tbody, items, columns, onClick) {
  tbody.replaceChildren();
  for (const item of items) {
    const row = tbody.insertRow();
    columns.forEach(([get, className]) => cell(row, get(item), className));
    if (onClick) { row.className = 'link'; row.addEventListener('click', () => onClick(item)); }
  }
}

function when(iso) { return iso ? new Date(iso).toLocaleString() : ''; }

/** A uPlot line chart of some series over steps, in a container (replaced on each call). */
function chart(container, title, steps, series) {
  container.replaceChildren();
  const shown = series.filter((s) => s.values.some((v) => v !== null));
  if (steps.length === 0 || shown.length === 0) return null;
  const palette = ['#0969da', '#cf222e', '#1a7f37', '#8250df'];
  return new uPlot({
    title, width: 520, height: 220,
    scales: { x: { time: false } },
    series: [{ label: 'step' }].concat(shown.map((s, i) => ({ label: s.label, stroke: palette[i % palette.length],
      width: 2, points: { show: true, size: 5 } }))),
    axes: [{ label: 'step', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] }, {}],
  }, [steps].concat(shown.map((s) => s.values)), container);
}

// ---- models ----

async function showModels(modelId) {
  const [trained, served] = await Promise.all([all('/v1/preview/models'), api('/v1/models')]);
  $('#base-models').textContent = served.data.filter((m) => m.parent === null).map((m) => m.id).join(', ');
  fill($('#model-table tbody'), trained, [[(m) => m.entity + '/' + m.project + '/' + m.name], [(m) => m.base_model],
    [(m) => m.latest_step], [(m) => when(m.created_at)]], (m) => { location.hash = '#models/' + m.id; });
  $('#model-detail').hidden = !modelId;
  if (!modelId) return;
  const model = trained.find((m) => m.id === modelId);
  $('#model-title').textContent = model ? model.entity + '/' + model.project + '/' + model.name : modelId;
  const checkpoints = await all('/v1/preview/models/' + encodeURIComponent(modelId) + '/checkpoints?order=asc');
  fill($('#checkpoint-table tbody'), checkpoints, [[(c) => c.step], [(c) => when(c.created_at)],
    [(c) => JSON.stringify(c.metrics), 'metrics']]);
  const metric = (name) => checkpoints.map((c) => (typeof c.metrics[name] === 'number' ? c.metrics[name] : null));
  chart($('#reward-chart'), 'Reward and loss per checkpoint', checkpoints.map((c) => c.step), [
    { label: 'train/reward', values: metric('train/reward') }, { label: 'val/reward', values: metric('val/reward') },
    { label: 'loss/train', values: metric('loss/train') }]);
}

// ---- jobs ----

async function listJobs() {
  const jobs = await api('/v1/preview/training-jobs?limit=50&order=desc');
  fill($('#job-table tbody'), jobs.data, [[(j) => j.id], [(j) => j.type], [(j) => j.status], [(j) => j.model_id],
    [(j) => when(j.created_at)]], (j) => { location.hash = '#jobs/' + j.id; });
}

async function showJobs(jobId) {
  await listJobs();
  $('#job-detail').hidden = !jobId;
  if (jobId) followJob(jobId);
}

/** Shows a job's events as the server streams them, redrawing its charts with every gradient step. */
function followJob(jobId) {
  const controller = new AbortController();
  following = controller;
  const steps = [];
  const series = { loss: [], learning_rate: [], kl_policy_ref: [], entropy: [] };
  let total = 0;
  $('#job-title').textContent = 'Job ' + jobId;
  $('#job-events').replaceChildren();
  $('#loss-chart').replaceChildren();
  $('#lr-chart').replaceChildren();
  const redraw = () => {
    const values = (name) => series[name];
    chart($('#loss-chart'), 'Loss, KL and entropy', steps, [{ label: 'loss', values: values('loss') },
      { label: 'kl_policy_ref', values: values('kl_policy_ref') }, { label: 'entropy', values: values('entropy') }]);
    chart($('#lr-chart'), 'Learning rate', steps, [{ label: 'learning_rate', values: values('learning_rate') }]);
    $('#job-progress').textContent = total ? steps.length + ' / ' + total + ' gradient steps' : '';
  };
  const status = async () => {
    const job = await api('/v1/preview/training-jobs/' + encodeURIComponent(jobId));
    $('#job-status').textContent = job.status + (job.result_step !== null ? ' (step ' + job.result_step + ')' : '')
      + (job.error_message ? ': ' + job.error_message : '');
  };
  status();
  stream('/v1/preview/training-jobs/' + encodeURIComponent(jobId) + '/events/stream', {}, (event) => {
    const item = document.createElement('li');
    item.textContent = event.type + ' ' + JSON.stringify(event.data);
    $('#job-events').append(item);
    if (event.type === 'training_started') total = event.data.num_gradient_steps || 0;
    if (event.type === 'gradient_step') {
      steps.push(event.data.gradient_step);
      for (const name of Object.keys(series)) {
        series[name].push(typeof event.data[name] === 'number' ? event.data[name] : null);
      }
      redraw();
    } else {
      status();
    }
  }, controller.signal).then(() => Promise.all([status(), listJobs()])).catch((e) => { if (e.name !== 'AbortError') $('#job-status').textContent = e.message; });
}

// ---- chat ----

const conversation = [];

async function showChat() {
  const served = await api('/v1/models');
  const select = $('#chat-model');
  const chosen = select.value;
  select.replaceChildren(...served.data.map((m) => new Option(m.id, m.id)));
  if (chosen) select.value = chosen;
}

function say(role, text) {
  const line = document.createElement('div');
  line.className = role;
  line.textContent = (role === 'user' ? 'You: ' : '') + text;
  $('#chat-log').append(line);
  return line;
}

async function send(event) {
  event.preventDefault();
  const text = $('#chat-input').value.trim();
  if (!text) return;
  $('#chat-input').value = '';
  $('#chat-error').textContent = '';
  conversation.push({ role: 'user', content: text });
  say('user', text);
  const line = say('assistant', '');
  let answer = '';
  try {
    await stream('/v1/chat/completions', { method: 'POST', body: { model: $('#chat-model').value, stream: true,
      messages: conversation, max_tokens: 256 } }, (chunk) => {
      const delta = chunk.choices && chunk.choices[0] && chunk.choices[0].delta;
      if (delta && delta.content) { answer += delta.content; line.textContent = answer; }
    });
    conversation.push({ role: 'assistant', content: answer });
  } catch (e) {
    conversation.pop();
    $('#chat-error').textContent = e.message;
  }
}

// ---- feedback ----

async function showFeedback(event) {
  if (event) event.preventDefault();
  const project = $('#feedback-project').value.trim();
  if (!project) return;
  $('#feedback-error').textContent = '';
  try {
    const answer = await api('/feedback/query', { method: 'POST', body: { project_id: project, limit: 100,
      sort_by: [{ field: 'created_at', direction: 'desc' }] } });
    fill($('#feedback-table tbody'), answer.result, [[(f) => when(f.created_at)], [(f) => f.feedback_type],
      [(f) => f.svc_ref || f.weave_ref], [(f) => JSON.stringify(f.payload), 'payload']]);
  } catch (e) {
    $('#feedback-error').textContent = e.message;
  }
}

// ---- stored completions and datasets ----

/** The completion form's filter: `entity/project`, model and metadata pairs (`key=value, …`). */
function completionFilter() {
  const [entity, ...rest] = $('#completion-project').value.trim().split('/');
  const metadata = {};
  for (const pair of $('#completion-metadata').value.split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) metadata[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  const model = $('#completion-model').value.trim();
  return { entity, project: rest.join('/') || 'default', model: model || null, metadata };
}

function excerpt(text, length = 80) {
  const flat = typeof text === 'string' ? text : JSON.stringify(text);
  return flat && flat.length > length ? flat.slice(0, length - 1) + '…' : flat;
}

async function showCompletions(event) {
  if (event) event.preventDefault();
  $('#completion-error').textContent = '';
  await listDatasets();
  if (!$('#completion-project').value.trim()) return;
  const filter = completionFilter();
  let query = '/v1/chat/completions?order=desc' + (filter.model ? '&model=' + encodeURIComponent(filter.model) : '');
  for (const [k, v] of Object.entries(filter.metadata)) {
    query += '&' + encodeURIComponent('metadata[' + k + ']') + '=' + encodeURIComponent(v);
  }
  const page = await api(query + '&limit=100');
  fill($('#completion-table tbody'), page.data, [[(c) => when(new Date(c.created * 1000).toISOString())],
    [(c) => c.model], [(c) => excerpt(c.choices[0] && c.choices[0].message.content)],
    [(c) => JSON.stringify(c.metadata), 'metadata']], (c) => showCompletion(c, filter));
}

/** One completion: its messages as sent, its answer, and the feedback on it in the form's project. */
async function showCompletion(completion, filter) {
  $('#completion-detail').hidden = false;
  $('#completion-title').textContent = completion.id + ' (' + completion.model + ')';
  const messages = await all('/v1/chat/completions/' + encodeURIComponent(completion.id) + '/messages');
  const items = messages.map((m) => m.role + ': ' + excerpt(m.content, 400));
  completion.choices.forEach((c) => items.push('answer: ' + excerpt(c.message.content, 400)));
  $('#completion-messages').replaceChildren(...items.map((text) => {
    const item = document.createElement('li');
    item.textContent = text;
    return item;
  }));
  const ref = 'weave:///' + filter.entity + '/' + filter.project + '/call/' + completion.id;
  const answer = await api('/feedback/query', { method: 'POST', body: { project_id: filter.entity + '/' + filter.project,
    query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: ref }] } }, limit: 100 } });
  fill($('#completion-feedback tbody'), answer.result, [[(f) => when(f.created_at)], [(f) => f.feedback_type],
    [(f) => JSON.stringify(f.payload), 'payload']]);
}

async function buildDataset(event) {
  event.preventDefault();
  $('#completion-error').textContent = '';
  const filter = completionFilter();
  const feedback = { type: $('#dataset-feedback-type').value.trim() };
  const path = $('#dataset-payload-path').value.trim();
  if (path) feedback.payload_path = path;
  const min = $('#dataset-min').value.trim();
  if (min) feedback.min = Number(min);
  const body = { name: $('#dataset-name').value.trim(), project: filter.project, kind: $('#dataset-kind').value,
    filter: { metadata: filter.metadata }, feedback };
  if (filter.model) body.filter.model = filter.model;
  try {
    const dataset = await api('/v1/datasets', { method: 'POST', body });
    $('#dataset-result').textContent = 'Built ' + dataset.id + ': ' + dataset.rows + ' rows.';
    await listDatasets();
  } catch (e) {
    $('#completion-error').textContent = e.message;
  }
}

async function listDatasets() {
  const datasets = await all('/v1/datasets');
  fill($('#dataset-table tbody'), datasets, [[(d) => d.id], [(d) => d.name], [(d) => d.kind], [(d) => d.rows, 'number'],
    [(d) => when(new Date(d.created_at * 1000).toISOString())]], previewDataset);
}

/** The first lines of a dataset's JSONL, read with the key (a plain link could not send it). */
async function previewDataset(dataset) {
  const response = await fetch('/v1/datasets/' + encodeURIComponent(dataset.id) + '/content',
    { headers: { Authorization: 'Bearer ' + key() } });
  const text = await response.text();
  const preview = $('#dataset-preview');
  preview.textContent = text.split('\n').slice(0, 5).join('\n');
  preview.hidden = false;
}

// ---- usage ----

async function showUsage() {
  $('#usage-error').textContent = '';
  try {
    await usageTable();
  } catch (e) {
    $('#usage-error').textContent = e.message;
  }
}

async function usageTable() {
  const start = Math.floor(Date.now() / 1000) - 7 * 24 * 3600;
  const rows = [];
  let page = null;
  do {
    const answer = await api('/v1/organization/usage/completions?start_time=' + start
      + '&bucket_width=1d&group_by=project_id' + (page ? '&page=' + encodeURIComponent(page) : ''));
    for (const bucket of answer.data) {
      for (const r of bucket.results) rows.push({ day: bucket.start_time, ...r });
    }
    page = answer.has_more ? answer.next_page : null;
  } while (page);
  fill($('#usage-table tbody'), rows, [[(r) => new Date(r.day * 1000).toLocaleDateString()], [(r) => r.project_id],
    [(r) => r.input_tokens, 'number'], [(r) => r.input_cached_tokens, 'number'], [(r) => r.output_tokens, 'number'],
    [(r) => r.num_model_requests, 'number']]);
  const sum = (field) => rows.reduce((total, r) => total + r[field], 0);
  $('#usage-total').textContent = 'Total: ' + sum('input_tokens') + ' input tokens, ' + sum('output_tokens')
    + ' output tokens in ' + sum('num_model_requests') + ' requests.';
}

// ---- navigation ----

function signOut(message) {
  sessionStorage.removeItem(KEY);
  $('#login-error').textContent = message || '';
  route();
}

async function signIn(event) {
  event.preventDefault();
  sessionStorage.setItem(KEY, $('#key').value.trim());
  $('#key').value = '';
  try {
    await api('/v1/models');
    $('#login-error').textContent = '';
    location.hash = '#models';
    route();
  } catch (e) {
    if (key()) $('#login-error').textContent = e.message;
  }
}

function route() {
  if (following) { following.abort(); following = null; }
  const [section, id] = (location.hash.slice(1) || 'models').split('/');
  const shown = key() ? (SECTIONS.includes(section) && section !== 'login' ? section : 'models') : 'login';
  SECTIONS.forEach((name) => { $('#' + name).hidden = name !== shown; });
  $('#nav').hidden = !key();
  document.querySelectorAll('nav a').forEach((a) => a.classList.toggle('active', a.hash === '#' + shown));
  const show = { models: () => showModels(id), jobs: () => showJobs(id), chat: showChat, feedback: () => showFeedback(),
    completions: () => showCompletions(), usage: showUsage };
  $('#page-error').textContent = '';
  if (show[shown]) show[shown]().catch((e) => { if (key()) $('#page-error').textContent = e.message; });
}

$('#login-form').addEventListener('submit', signIn);
$('#sign-out').addEventListener('click', () => signOut());
$('#chat-form').addEventListener('submit', send);
$('#feedback-form').addEventListener('submit', showFeedback);
$('#completion-form').addEventListener('submit', (e) => showCompletions(e).catch((err) => { $('#completion-error').textContent = err.message; }));
$('#dataset-form').addEventListener('submit', buildDataset);
window.addEventListener('hashchange', route);
route();
