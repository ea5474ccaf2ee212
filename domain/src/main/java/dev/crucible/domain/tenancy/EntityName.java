package dev.crucible.domain.tenancy;

/** A team or user: the tenant every key, model, job and feedback row belongs to. */
public record EntityName(String value) {

    public EntityName {
        Names.require("entity", value);
    }

    @Override
    public String toString() {
        return value;
    }
}
