/** Chat templates: a model's Jinja template rendered into a prompt as transformers' {@code apply_chat_template}. */
package dev.crucible.runtime.template;
