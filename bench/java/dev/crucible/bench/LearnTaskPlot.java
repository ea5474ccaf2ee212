package dev.crucible.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * The learn-task curves as a PNG (headless AWT): held-out exact-match accuracy at each stage (pretrained, SFT, each RL
 * step) and the RL rollouts' mean reward per step, both on a 0..1 axis over the stages.
 */
final class LearnTaskPlot {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 520;
    private static final int LEFT = 70;
    private static final int RIGHT = 30;
    private static final int TOP = 50;
    private static final int BOTTOM = 70;

    private LearnTaskPlot() {
    }

    /**
     * @param accuracy one value per stage: pretrained, after SFT, after RL step 1..n
     * @param reward   the mean reward of RL step 1..n's rollouts (sampled before that step trains)
     */
    static void write(Path file, String title, List<Double> accuracy, List<Double> reward) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        int stages = Math.max(2, accuracy.size());
        g.setColor(Color.LIGHT_GRAY);
        for (int i = 0; i <= 10; i++) {
            int y = y(i / 10.0);
            g.drawLine(LEFT, y, WIDTH - RIGHT, y);
            g.drawString(String.format(Locale.ROOT, "%.1f", i / 10.0), LEFT - 30, y + 4);
        }
        g.setColor(Color.DARK_GRAY);
        int every = Math.max(1, (stages + 15) / 16);
        for (int s = 0; s < stages; s++) {
            if (s > 1 && (s - 1) % every != 0) {
                continue;
            }
            String label = s == 0 ? "pre" : s == 1 ? "SFT" : "RL" + (s - 1);
            g.drawString(label, x(s, stages) - 10, HEIGHT - BOTTOM + 18);
        }
        g.drawLine(LEFT, y(0), WIDTH - RIGHT, y(0));
        g.drawLine(LEFT, y(0), LEFT, y(1));
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.drawString(title, LEFT, 25);
        line(g, accuracy, 0, stages, new Color(0x1f77b4));
        line(g, reward, 2, stages, new Color(0xd62728));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setColor(new Color(0x1f77b4));
        g.drawString("held-out exact-match accuracy (greedy)", LEFT + 10, HEIGHT - 25);
        g.setColor(new Color(0xd62728));
        g.drawString("RL rollouts' mean reward (sampled at T=1 before the step)", LEFT + 300, HEIGHT - 25);
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static void line(Graphics2D g, List<Double> values, int firstStage, int stages, Color color) {
        g.setColor(color);
        g.setStroke(new BasicStroke(2.5f));
        for (int i = 0; i < values.size(); i++) {
            int x = x(firstStage + i, stages);
            int y = y(values.get(i));
            g.fillOval(x - 4, y - 4, 8, 8);
            if (i > 0) {
                g.drawLine(x(firstStage + i - 1, stages), y(values.get(i - 1)), x, y);
            }
        }
    }

    private static int x(int stage, int stages) {
        return LEFT + 20 + (int) Math.round(stage * (WIDTH - LEFT - RIGHT - 40) / (double) (stages - 1));
    }

    private static int y(double value) {
        return HEIGHT - BOTTOM - (int) Math.round(value * (HEIGHT - TOP - BOTTOM));
    }
}
